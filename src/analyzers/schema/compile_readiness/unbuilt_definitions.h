// Where an op that no linted translation unit defines is written anyway: a
// source of the project the build does not compile (a file kept for newer
// releases, a backend this configuration leaves out). A fake registered from
// Python for such an op is not a typo: torch.library registers fakes lazily,
// and the op exists in the builds that compile that file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace torchabi::schema {

// The first C/C++/CUDA source under `roots` (hidden, build and environment
// directories skipped) whose text holds the op's schema or impl name as a
// string literal: "name(" or "name". `op` is "ns::name[.overload]". Reads
// files only when called, and each file once per call.
std::optional<std::string> source_naming_op(const std::vector<std::string>& roots, const std::string& op);

}  // namespace torchabi::schema
