// rules/api/replacements.yaml: lookups by exact name and pattern, expansion
// of "*", and the validation of malformed entries.
#include <gtest/gtest.h>

#include "analyzers/source/replacements.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::source {
namespace {

const Replacements& shipped() {
  static const Replacements r = Replacements::load(inputs::RulesSource::embedded());
  return r;
}

TEST(Replacements, ShippedEntriesForTheIssueExamples) {
  auto tensor = shipped().find("at::Tensor");
  ASSERT_TRUE(tensor && tensor->replacement);
  EXPECT_EQ(*tensor->replacement, "torch::stable::Tensor");
  EXPECT_EQ(tensor->entry->fix, ReplacementFix::Safe);
  EXPECT_EQ(tensor->entry->since, (TorchVersion{2, 9, 0}));

  auto kfloat = shipped().find("c10::kFloat");
  ASSERT_TRUE(kfloat && kfloat->replacement);
  EXPECT_EQ(*kfloat->replacement, "torch::headeronly::kFloat");

  auto guard = shipped().find("c10::cuda::CUDAGuard");
  ASSERT_TRUE(guard && guard->replacement);
  EXPECT_EQ(*guard->replacement, "torch::stable::accelerator::DeviceGuard");

  auto method = shipped().find("at::Tensor::transpose");
  ASSERT_TRUE(method);
  EXPECT_EQ(method->entry->style, ReplacementStyle::MethodToFunction);

  auto check = shipped().find("TORCH_CHECK", "macro");
  ASSERT_TRUE(check && check->replacement);
  EXPECT_EQ(*check->replacement, "STD_TORCH_CHECK");
  // Macros and C++ names are looked up separately.
  EXPECT_FALSE(shipped().find("TORCH_CHECK"));
}

TEST(Replacements, PatternsExpandWhatTheyMatched) {
  auto e = shipped().find("c10::ScalarType::BFloat16");
  ASSERT_TRUE(e && e->replacement);
  EXPECT_EQ(*e->replacement, "torch::headeronly::ScalarType::BFloat16");
  auto eq = shipped().find("TORCH_CHECK_EQ", "macro");
  ASSERT_TRUE(eq);
  EXPECT_EQ(eq->entry->fix, ReplacementFix::No);
  auto exact = shipped().find("AT_DISPATCH_FLOATING_TYPES", "macro");
  ASSERT_TRUE(exact && exact->replacement);
  EXPECT_EQ(*exact->replacement, "STABLE_DISPATCH_FLOATING_TYPES");
  auto generic = shipped().find("AT_DISPATCH_FLOATING_TYPES_AND2", "macro");
  ASSERT_TRUE(generic && generic->replacement);
  EXPECT_EQ(*generic->replacement, "STABLE_DISPATCH_SWITCH");
}

TEST(Replacements, MalformedEntriesAreRejected) {
  EXPECT_THROW(Replacements::parse("apis: [{kind: type}]", "t.yaml"), InputError);
  EXPECT_THROW(Replacements::parse("apis: [{legacy: [a::B], kind: type, fix: maybe}]", "t.yaml"), InputError);
  EXPECT_THROW(Replacements::parse("apis: [{legacy: [a::B], kind: type, fix: safe}]", "t.yaml"), InputError);
  EXPECT_THROW(Replacements::parse("apis: [{legacy: [a::B], kind: type, since: soon}]", "t.yaml"), InputError);
  EXPECT_NO_THROW(Replacements::parse("apis: [{legacy: [a::B], kind: type, replacement: null}]", "t.yaml"));
}

}  // namespace
}  // namespace torchabi::source
