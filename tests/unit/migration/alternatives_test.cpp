// Older stable spellings and the lowest target: the plan counts the oldest
// release that does the job, names the uses that force anything newer, and
// leaves uses that need no edit out of the work.
#include <gtest/gtest.h>

#include "analyzers/migration/alternatives.h"
#include "analyzers/migration/plan_builder.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

using namespace torchabi::migration;
using torchabi::TorchVersion;

namespace {

const BlockerCatalog& no_blockers() {
  static BlockerCatalog c = BlockerCatalog::from_yaml("blockers: []\n", "test.yaml");
  return c;
}

ApiUse use(std::string api, uint32_t line, std::string repl, TorchVersion since) {
  ApiUse u;
  u.api = std::move(api);
  u.replacement = std::move(repl);
  u.since = since;
  u.disposition = Disposition::Manual;
  u.location.file = "a.cpp";
  u.location.line = line;
  return u;
}

const TorchVersion k29{2, 9, 0}, k210{2, 10, 0};

}  // namespace

TEST(Alternatives, ShippedTableParsesAndNamesOlderApis) {
  const auto alts = Alternatives::load(torchabi::inputs::RulesSource::embedded());
  const Alternative* a = alts.find("torch::stable::empty");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->use, "torch::stable::new_empty");
  EXPECT_EQ(a->since, k29);
  for (const auto& e : alts.entries()) EXPECT_FALSE(e.how.empty()) << e.for_api;
  EXPECT_THROW(Alternatives::parse("alternatives:\n  - {for: x, use: y, since: soon, how: z}\n", "t.yaml"),
               torchabi::InputError);
  EXPECT_THROW(Alternatives::parse("alternatives:\n  - {for: x, since: '2.9', how: z}\n", "t.yaml"), torchabi::InputError);
}

TEST(Alternatives, TheLowestTargetTakesTheOlderSpellingAndNamesWhatForcesMore) {
  const auto alts = Alternatives::parse(
      "alternatives:\n  - {for: torch::stable::empty, use: torch::stable::new_empty, since: '2.9', how: with x.}\n",
      "t.yaml");
  std::vector<ApiUse> uses = {use("torch::empty", 3, "torch::stable::empty", k210),
                              use("at::Tensor::contiguous", 7, "torch::stable::contiguous", k210)};
  apply_alternatives(uses, alts);
  EXPECT_EQ(uses[0].alternative, "torch::stable::new_empty");
  EXPECT_EQ(*uses[0].needs(), k29);
  EXPECT_NE(uses[0].note.find("torch::stable::empty needs 2.10"), std::string::npos) << uses[0].note;
  EXPECT_TRUE(uses[1].alternative.empty());

  PlanInputs in;
  in.baseline = k29;
  in.uses = uses;
  MigrationPlan p = build_plan(in, no_blockers());
  ASSERT_TRUE(p.target);
  EXPECT_EQ(*p.target, k210);  // contiguous has no older spelling
  EXPECT_EQ(p.target_set_by, std::vector<std::string>{"torch::stable::contiguous"});
  EXPECT_EQ(p.target_forced_by, std::vector<std::string>{"at::Tensor::contiguous at a.cpp:7 -> torch::stable::contiguous"});

  in.uses = {uses[0]};  // without it: the alternative's release is the target
  p = build_plan(in, no_blockers());
  EXPECT_TRUE(p.target_is_baseline);
  EXPECT_EQ(*p.target, k29);
}

TEST(Alternatives, UnchangedUsesAreCountedApartNotAsWork) {
  std::vector<ApiUse> uses = {use("at::Tensor", 1, "torch::stable::Tensor", k29),
                              use("at::TensorBase::size", 2, "torch::stable::Tensor::size", k29),
                              use("at::TensorBase::size", 3, "torch::stable::Tensor::size", k29)};
  uses[1].unchanged = uses[2].unchanged = true;
  PlanInputs in;
  in.baseline = k29;
  in.uses = uses;
  const MigrationPlan p = build_plan(in, no_blockers());
  EXPECT_EQ(p.summary.total(), 1u);
  EXPECT_EQ(p.summary.unchanged, 2u);
  ASSERT_EQ(p.apis.size(), 2u);
  EXPECT_EQ(p.apis[0].api, "at::Tensor");  // work first
  EXPECT_EQ(p.apis[1].counts.unchanged, 2u);
  EXPECT_EQ(p.apis[1].counts.total(), 0u);
  ASSERT_EQ(p.files.size(), 1u);
  EXPECT_EQ(p.files[0].counts.total(), 1u);
}
