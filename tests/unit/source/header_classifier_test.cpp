// Include classification by include-relative name, wherever torch is installed.
#include <gtest/gtest.h>

#include "analyzers/source/header_classifier.h"
#include "inputs/rules_source.h"

namespace torchabi::source {
namespace {

const HeaderClassifier& classifier() {
  static const HeaderClassifier c = HeaderClassifier::load(inputs::RulesSource::embedded());
  return c;
}

TEST(HeaderClassifier, StableUnstableAndOther) {
  const auto& c = classifier();
  EXPECT_EQ(c.classify("torch/csrc/stable/ops.h"), HeaderKind::Stable);
  EXPECT_EQ(c.classify("torch/headeronly/core/ScalarType.h"), HeaderKind::Stable);
  EXPECT_EQ(c.classify("torch/csrc/inductor/aoti_torch/c/shim.h"), HeaderKind::Stable);
  EXPECT_EQ(c.classify("torch/csrc/inductor/aoti_torch/generated/c_shim_cuda.h"), HeaderKind::Stable);
  EXPECT_EQ(c.classify("torch/csrc/inductor/aoti_torch/generated/other.h"), HeaderKind::Unstable);
  EXPECT_EQ(c.classify("torch/extension.h"), HeaderKind::Unstable);
  EXPECT_EQ(c.classify("torch/library.h"), HeaderKind::Unstable);
  EXPECT_EQ(c.classify("ATen/ATen.h"), HeaderKind::Unstable);
  EXPECT_EQ(c.classify("c10/cuda/CUDAGuard.h"), HeaderKind::Unstable);
  EXPECT_EQ(c.classify("torch/csrc/autograd/variable.h"), HeaderKind::Unstable);
  EXPECT_EQ(c.classify("pybind11/pybind11.h"), HeaderKind::Other);
  EXPECT_EQ(c.classify("vector"), HeaderKind::Other);
}

TEST(HeaderClassifier, TorchNameFromIncludeDirectoryOrRightmostRoot) {
  const auto& c = classifier();
  const std::string site = "/venv/lib/python3.11/site-packages/torch/include";
  EXPECT_EQ(c.torch_name(site + "/torch/csrc/stable/ops.h", {site}), "torch/csrc/stable/ops.h");
  // Without the -I directory: the rightmost torch root in the path.
  EXPECT_EQ(c.torch_name(site + "/torch/csrc/stable/ops.h", {}), "torch/csrc/stable/ops.h");
  EXPECT_EQ(c.torch_name("/usr/include/torch/csrc/api/include/torch/nn.h", {}), "torch/nn.h");
  EXPECT_EQ(c.torch_name("/usr/include/ATen/core/Tensor.h", {}), "ATen/core/Tensor.h");
  EXPECT_EQ(c.torch_name("/home/me/project/src/kernel.h", {"/home/me/project/src"}), "");
  EXPECT_EQ(c.torch_name("/usr/include/pybind11/pybind11.h", {}), "");
}

}  // namespace
}  // namespace torchabi::source
