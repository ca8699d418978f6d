// Prefixes of finding notes that a later stage reads back. A note is text for
// the user; these few also carry a fact from the stage that knows it (lint,
// per translation unit) to one that needs it (project mode, per build
// configuration), so producer and reader spell them from one place.
#pragma once

#include <string_view>

namespace torchabi::findings {

// "compiled from <source>": the translation unit that reported a finding
// located in a header it includes.
constexpr std::string_view kCompiledFrom = "compiled from ";

// The fact of a translation unit whose parse a non-stable include broke
// (analyzers/source/broken_parse.h): "<ATen/cuda/CUDAContext.h> at
// ops.cpp:7". Findings resting on what that parse lost are notes that say so,
// the registration checks' too (analyzers/schema).
constexpr std::string_view kParseBrokenBy = "parse broken by";
constexpr std::string_view kRestsOnBrokenParse = "rests on a parse broken by ";

}  // namespace torchabi::findings
