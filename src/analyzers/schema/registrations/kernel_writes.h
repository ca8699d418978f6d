// Which reference parameters a kernel writes through, read from its body:
// a non-const Tensor& the schema does not mark as written is harmless when
// the kernel only reads it, and a wrong result for the caller when it writes
// it (the dispatcher assumes the argument is unchanged).
#pragma once

#include <clang-c/Index.h>

#include <optional>
#include <string>
#include <vector>

#include "analyzers/source/front_end.h"

namespace torchabi::schema {

// For each parameter of `fn` (a function, method or lambda), the first write
// through it: "out.fill_() at /abs/file.cpp:12", "torch::stable::zero_(out,
// ...) at ...", "an assignment to 'out' at ..."; empty when the body does not
// write it. Writes are in-place methods (a name ending in '_'),
// mutable_data_ptr, a torch::stable in-place op taking it first, and
// assignment. nullopt when the TU holds no body for `fn`.
std::optional<std::vector<std::string>> parameter_writes(const source::ParsedTu& tu, CXCursor fn);

}  // namespace torchabi::schema
