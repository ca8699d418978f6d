// One root cause, one error. A stable translation unit that includes a
// non-stable header (<ATen/cuda/CUDAContext.h> in a TORCH_TARGET_VERSION
// build) does not compile: the header is missing, stops with #error, or
// brings declarations of another release that collide with the stable
// headers'. Clang then parses the rest without what it lost, and the checks
// that conclude from the AST see stable names undeclared, a stable enum
// resolved to c10's, a registration whose dispatch key it could not read.
// Those are consequences of the include, not defects of their lines: they
// stay in the report as notes that name the include, and the include (with
// the header's #error as its note) is the one error.
#pragma once

#include <optional>
#include <string>

#include "analyzers/source/front_end.h"
#include "analyzers/source/tu_check.h"

namespace torchabi::source {

struct BrokenParse {
  std::string include;  // "<ATen/cuda/CUDAContext.h>"
  std::string site;     // "csrc/ops.cpp:7" (absolute path until the report shortens it)
  std::string text() const { return include + " at " + site; }
};

// The non-stable include (in a project file) that broke the parse of a TU
// that includes the stable headers, when clang reported an error in or
// because of it; nullopt when the parse is whole or the TU is not stable.
std::optional<BrokenParse> parse_broken_by(const ParsedTu& tu);

// Whether findings of `rule` conclude from declarations the AST has or
// lacks (and may have lost), rather than from #include lines, macros and
// tokens, which a broken parse does not change.
bool rests_on_declarations(const std::string& rule);

// For a TU whose parse a non-stable include broke: records the subject fact
// (findings::kParseBrokenBy), turns the findings that rest on declarations
// into notes that name the include, and keeps the include as the one error
// (a build-header-error at the same line becomes its note).
void note_what_rests_on_a_broken_parse(const ParsedTu& tu, TuResult& result);

}  // namespace torchabi::source
