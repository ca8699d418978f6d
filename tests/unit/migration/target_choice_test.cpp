// The lowest target counts each use's oldest stable spelling; a ceiling
// lists what cannot stay under it; --fix's code is fitted to the target.
#include <gtest/gtest.h>

#include "analyzers/migration/target_choice.h"

using namespace torchabi;
using namespace torchabi::migration;

namespace {

TorchVersion v(const char* s) { return *TorchVersion::parse_dotted(s); }

ApiUse use(const std::string& api, const std::string& replacement, const char* since, uint32_t line) {
  ApiUse u;
  u.api = api;
  u.replacement = replacement;
  u.since = v(since);
  u.location = {"a.cpp", line, 1, "", api};
  u.disposition = Disposition::Fixable;
  return u;
}

findings::FixIt fix(const std::string& with, std::optional<TorchVersion> needs) {
  findings::FixIt f{"a.cpp", 0, 1, with, findings::FixSafety::Safe, "", {}, {}};
  f.needs = needs;
  return f;
}

ApiUse templated_data_ptr(uint32_t line) {
  ApiUse u = use("at::TensorBase::data_ptr", "torch::stable::Tensor::mutable_data_ptr", "2.10", line);
  u.alternative = "torch::stable::Tensor::data_ptr";
  u.alternative_since = v("2.9");
  u.fix = fix("mutable_data_ptr", v("2.10"));
  u.fallback_fix = fix("static_cast<float*>(x.data_ptr())", v("2.9"));
  return u;
}

}  // namespace

TEST(TargetChoice, AUseWithAnOlderSpellingCountsTheOlderRelease) {
  const std::vector<ApiUse> uses = {use("at::Tensor", "torch::stable::Tensor", "2.9", 1), templated_data_ptr(2)};
  const TargetChoice c = choose_target(uses, v("2.9"));
  EXPECT_EQ(c.target, v("2.9"));
  EXPECT_TRUE(c.is_baseline);
  EXPECT_TRUE(c.forced_by.empty());
}

TEST(TargetChoice, TheUsesWithoutOneSetTheTargetAndAreNamed) {
  const std::vector<ApiUse> uses = {templated_data_ptr(2), use("at::Tensor::contiguous", "torch::stable::contiguous", "2.10", 7)};
  const TargetChoice c = choose_target(uses, v("2.9"));
  EXPECT_EQ(c.target, v("2.10"));
  EXPECT_FALSE(c.is_baseline);
  EXPECT_EQ(c.forced_by, std::vector<std::string>{"at::Tensor::contiguous at a.cpp:7 -> torch::stable::contiguous"});
  EXPECT_TRUE(c.above_ceiling.empty());
}

TEST(TargetChoice, ACeilingListsWhatCannotStayUnderIt) {
  const std::vector<ApiUse> uses = {templated_data_ptr(2), use("at::Tensor::contiguous", "torch::stable::contiguous", "2.10", 7)};
  const TargetChoice c = choose_target(uses, v("2.9"), v("2.9"));
  EXPECT_EQ(c.target, v("2.9"));
  EXPECT_EQ(c.above_ceiling,
            std::vector<std::string>{"at::Tensor::contiguous at a.cpp:7 -> torch::stable::contiguous needs 2.10"});
}

TEST(TargetChoice, FixesTakeTheOlderSpellingOnlyWhenTheTargetNeedsIt) {
  std::vector<ApiUse> low = {templated_data_ptr(2)};
  EXPECT_TRUE(fit_fixes_to_target(low, v("2.9")).empty());
  EXPECT_EQ(low[0].fix->replacement, "static_cast<float*>(x.data_ptr())");
  EXPECT_EQ(low[0].disposition, Disposition::Fixable);

  std::vector<ApiUse> high = {templated_data_ptr(2)};
  EXPECT_TRUE(fit_fixes_to_target(high, v("2.10")).empty());
  EXPECT_EQ(high[0].fix->replacement, "mutable_data_ptr");
}

TEST(TargetChoice, AFixWithNothingOldEnoughIsWithheld) {
  ApiUse c = use("at::Tensor::contiguous", "torch::stable::contiguous", "2.10", 7);
  c.fix = fix("torch::stable::contiguous(x)", std::nullopt);  // needs the replacement's release
  std::vector<ApiUse> uses = {c, use("TORCH_CHECK", "STD_TORCH_CHECK", "2.9", 8)};
  uses[1].fix = fix("STD_TORCH_CHECK", std::nullopt);
  const auto withheld = fit_fixes_to_target(uses, v("2.9"));
  ASSERT_EQ(withheld.size(), 1u);
  EXPECT_NE(withheld[0].find("torch::stable::contiguous needs 2.10"), std::string::npos) << withheld[0];
  EXPECT_FALSE(uses[0].fix);
  EXPECT_EQ(uses[0].disposition, Disposition::Manual);
  EXPECT_TRUE(uses[1].fix);
}
