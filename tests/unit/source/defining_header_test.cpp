// Finding the header that defines a stable function a TU only declares:
// textual definitions ("Class::name(...) ... {") against declarations and uses.
#include <gtest/gtest.h>

#include "analyzers/source/checks/defining_header.h"
#include "test_helpers.h"

namespace torchabi::source::checks {
namespace {

TEST(DefiningHeader, OutOfClassDefinitionCounts) {
  EXPECT_TRUE(text_defines("inline ScalarType Tensor::scalar_type() const {\n  return x;\n}", "Tensor::scalar_type"));
  EXPECT_TRUE(text_defines("template <>\ninline T* Tensor::mutable_data_ptr() const {", "Tensor::mutable_data_ptr"));
  EXPECT_TRUE(text_defines("inline auto Tensor::device() const -> torch::stable::Device {", "Tensor::device"));
  EXPECT_TRUE(text_defines("inline Tensor fill_(const Tensor& self, double v) noexcept(false) {", "fill_"));
}

TEST(DefiningHeader, DeclarationsAndUsesDoNot) {
  EXPECT_FALSE(text_defines("  ScalarType scalar_type() const;", "Tensor::scalar_type"));
  EXPECT_FALSE(text_defines("auto Tensor::device() const -> torch::stable::Device;", "Tensor::device"));
  EXPECT_FALSE(text_defines("return self.fill_(1.0);", "Tensor::fill_"));
  EXPECT_FALSE(text_defines("Tensor fill_(const Tensor& self, double v);", "fill_"));
  // "other::fill_" is not "fill_", and a call is not a definition.
  EXPECT_FALSE(text_defines("inline void other::fill_(int) {}", "fill_"));
  EXPECT_FALSE(text_defines("x = fill_(t, 1.0);", "fill_"));
}

TEST(DefiningHeader, StandInTensorHeadersNameTheInlHeaderAndTheUmbrella) {
  const std::string dir = test::lint_fixture("include/torch/csrc/stable");
  DefiningHeader d = find_defining_header(dir + "/tensor_struct.h", "Tensor::scalar_type");
  EXPECT_EQ(d.definer, "tensor_inl.h");
  EXPECT_EQ(d.umbrella, "tensor.h");
  EXPECT_EQ(find_defining_header(dir + "/tensor_struct.h", "Tensor::no_such_method").definer, "");
}

}  // namespace
}  // namespace torchabi::source::checks
