// Which header to include for a torch::stable / torch::headeronly entity a
// library imports: read from rules/api/stable_cxx_apis.tsv (the header that
// declares each name). A binary has no include paths to search, so PyTorch's
// convention stands in for a lookup: a declaration in X_struct.h has its
// out-of-class definitions in X_inl.h, and X.h includes both.
#pragma once

#include <string>
#include <string_view>

namespace torchabi::binary {

// "torch/csrc/stable/tensor.h" for "torch::stable::Tensor::scalar_type"; the
// declaring header of the name (or of its class) otherwise; empty when the
// rules do not know it.
std::string stable_header_to_include(std::string_view qualified);

}  // namespace torchabi::binary
