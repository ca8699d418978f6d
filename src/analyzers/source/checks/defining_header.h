// Where a stable header function that a TU declares but never defines is
// defined: PyTorch splits a class between X_struct.h (the class, some methods
// only declared) and X_inl.h (their out-of-class definitions), with X.h
// including both. The TU lacks the definition, so it is looked for on disk,
// among the declaring header's siblings.
#pragma once

#include <string>

namespace torchabi::source::checks {

struct DefiningHeader {
  std::string definer;   // the sibling's file name that defines it ("tensor_inl.h"); empty: none found
  std::string umbrella;  // a sibling that includes both the declaring and the defining header ("tensor.h")
};

// `declaring_file`: absolute path of the header holding the declaration.
// `needle`: the name as a definition spells it: "Tensor::scalar_type" for a
// method (defined out of class), "foo" for a namespace-scope function.
DefiningHeader find_defining_header(const std::string& declaring_file, const std::string& needle);

// Whether `text` holds a definition of `needle`: the name, optional template
// arguments, a parameter list, then a body ('{', or ':' for a constructor)
// before any ';'.
bool text_defines(const std::string& text, const std::string& needle);

}  // namespace torchabi::source::checks
