// `torchabi explain NAME`: the porter's lookup of one API (stable since when,
// its replacement, the workaround or the call by name), from the shipped rules.
#include <gtest/gtest.h>

#include "cli_harness.h"

using torchabi::e2e::run_torchabi;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST(ExplainApi, AnAtenFunctionNamesItsStableOpAndRelease) {
  auto r = run_torchabi({"explain", "at::transpose"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "at::transpose: not stable")) << r.out;
  EXPECT_TRUE(has(r.out, "replacement: torch::stable::transpose (torch/csrc/stable/ops.h), since 2.9")) << r.out;
  EXPECT_FALSE(has(r.out, "dispatcher:")) << "a wrapped op needs no call by name: " << r.out;
}

TEST(ExplainApi, AStandardTypeReexportedByTorchNamesTheStandardOne) {
  for (const char* name : {"c10::optional", "torch::optional"}) {
    auto r = run_torchabi({"explain", name});
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_TRUE(has(r.out, "replacement: std::optional (<optional>)")) << r.out;
  }
}

TEST(ExplainApi, ATensorMemberSpelledThroughTorchIsAtensMember) {
  auto r = run_torchabi({"explain", "torch::Tensor::data_ptr"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "at::Tensor")) << r.out;
  EXPECT_TRUE(has(r.out, "replacement: torch::stable::Tensor::")) << r.out;
}

TEST(ExplainApi, AStableShimFunctionSaysSinceWhen) {
  auto r = run_torchabi({"explain", "aoti_torch_empty_strided"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "aoti_torch_empty_strided: stable, since <=2.9")) << r.out;
  EXPECT_FALSE(has(r.out, "replacement")) << r.out;
}

TEST(ExplainApi, AStableCxxApiIsStable) {
  auto r = run_torchabi({"explain", "torch::stable::narrow"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "torch::stable::narrow: stable, since ")) << r.out;
}

TEST(ExplainApi, AnOperatorWithoutAWrapperGetsTheCallByNameWithItsSchema) {
  auto r = run_torchabi({"explain", "at::flip"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "dispatcher: aten::flip")) << r.out;
  EXPECT_TRUE(has(r.out, "flip(Tensor self, int[] dims) -> Tensor")) << r.out;
  EXPECT_TRUE(has(r.out, "torch_call_dispatcher(\"aten::flip\"")) << r.out;
}

TEST(ExplainApi, TheDispatcherHandleHasItsNamedWorkaround) {
  auto r = run_torchabi({"explain", "c10::Dispatcher::findSchemaOrThrow"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "workaround (dispatcher-handle")) << r.out;
  EXPECT_TRUE(has(r.out, "torch_call_dispatcher")) << r.out;
}

TEST(ExplainApi, AMacroIsLookedUpAmongMacros) {
  auto r = run_torchabi({"explain", "TORCH_CHECK"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "TORCH_CHECK: not stable (macro)")) << r.out;
  EXPECT_TRUE(has(r.out, "replacement: STD_TORCH_CHECK")) << r.out;
}

TEST(ExplainApi, AVendoredContainerIsAStandardOne) {
  auto r = run_torchabi({"explain", "ska::flat_hash_map"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "replacement: std::unordered_map")) << r.out;
}

TEST(ExplainApi, AnUnknownNameIsAOneLineErrorWithTheClosestNames) {
  auto r = run_torchabi({"explain", "at::sigmiod"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(has(r.err, "at::sigmiod")) << r.err;
  EXPECT_TRUE(has(r.err, "did you mean: at::sigmoid")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(ExplainApi, ANameOfNoTorchNamespaceIsUnknown) {
  auto r = run_torchabi({"explain", "std::vector"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "no such rule or known PyTorch API")) << r.err;
}
