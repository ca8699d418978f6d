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

  // The header-only headers have the enumerator only (no torch::headeronly::kFloat),
  // under every legacy spelling of the constant (derived: replacements_derived.yaml).
  for (const char* k : {"c10::kFloat", "at::kFloat", "torch::kFloat32", "torch::kF32"}) {
    auto kfloat = shipped().find(k);
    ASSERT_TRUE(kfloat && kfloat->replacement) << k;
    EXPECT_EQ(*kfloat->replacement, "torch::headeronly::ScalarType::Float") << k;
  }
  auto kint32 = shipped().find("torch::kInt32");
  ASSERT_TRUE(kint32 && kint32->replacement);
  EXPECT_EQ(*kint32->replacement, "torch::headeronly::ScalarType::Int");
  // Idioms a port uses instead of TensorOptions, indexing and nn::functional.
  EXPECT_EQ(*shipped().find("at::TensorBase::dtype")->replacement, "torch::stable::Tensor::scalar_type");
  EXPECT_EQ(*shipped().find("torch::nn::functional::pad")->replacement, "torch::stable::pad");
  EXPECT_EQ(*shipped().find("at::indexing::Slice")->replacement, "torch::stable::narrow");
  EXPECT_EQ(shipped().find("c10::optional::value")->entry->style, ReplacementStyle::SameMethod);

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
  // The header-only headers' dispatch: THO_DISPATCH_V2 with a type group.
  EXPECT_EQ(*exact->replacement, "THO_DISPATCH_V2($1, $2, AT_WRAP($3), AT_EXPAND(AT_FLOATING_TYPES))");
  EXPECT_EQ(exact->entry->style, ReplacementStyle::CallTemplate);
  auto generic = shipped().find("AT_DISPATCH_FLOATING_TYPES_AND2", "macro");
  ASSERT_TRUE(generic && generic->replacement);
  EXPECT_EQ(*generic->replacement, "THO_DISPATCH_V2");
  auto twin = shipped().find("AT_DISPATCH_SWITCH", "macro");  // derived from the THO_ twin
  ASSERT_TRUE(twin && twin->replacement);
  EXPECT_EQ(*twin->replacement, "THO_DISPATCH_SWITCH");
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
