// The header audit advises for an imported torch::stable / torch::headeronly
// entity: the declaring header of rules/api/stable_cxx_apis.tsv, or for an
// X_struct.h declaration the umbrella X.h that also holds its definitions.
#include <gtest/gtest.h>

#include "analyzers/binary/stable_cxx_headers.h"

namespace torchabi::binary {
namespace {

TEST(StableCxxHeaders, StructHeaderDeclarationsPointToTheUmbrella) {
  EXPECT_EQ(stable_header_to_include("torch::stable::Tensor::scalar_type"), "torch/csrc/stable/tensor.h");
  // A member the rules do not list is found through its class.
  EXPECT_EQ(stable_header_to_include("torch::stable::Tensor::no_such_member"), "torch/csrc/stable/tensor.h");
}

TEST(StableCxxHeaders, OtherDeclarationsPointToTheirHeader) {
  EXPECT_EQ(stable_header_to_include("torch::stable::reshape"), "torch/csrc/stable/ops.h");
  EXPECT_EQ(stable_header_to_include("torch::headeronly::ScalarType"), "torch/headeronly/core/ScalarType.h");
  EXPECT_EQ(stable_header_to_include("torch::stable::no_such_function"), "");
}

}  // namespace
}  // namespace torchabi::binary
