// Uses in #if branches lint's configuration does not compile become manual
// migration work (inactive_uses.h): lint of a real fixture, then the plan.
#include <gtest/gtest.h>

#include "analyzers/migration/inactive_uses.h"
#include "analyzers/migration/lint_adapter.h"
#include "analyzers/migration/plan_builder.h"
#include "analyzers/source/lint_engine.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::migration {
namespace {

TEST(InactiveUses, AUseInAnInactiveBranchIsCountedAsManualInThePlan) {
  const auto& rules = inputs::RulesSource::embedded();
  const source::LintEnv env = source::LintEnv::load(rules, inputs::ApiCatalog::current());
  const std::string dir = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/migrate/guards";
  const std::string file = dir + "/checks.cpp";
  auto args = inputs::translate_flags(file, {"-std=c++17"}, dir);
  source::TuResult tu = source::analyze_translation_unit(args, env, {dir});
  ASSERT_TRUE(tu.failure.empty()) << tu.failure;
  findings::Report report;
  report.findings = tu.findings;
  for (auto& f : report.findings)
    if (f.rule == "source-inactive-branch") f.severity = findings::Severity::Warning;  // what the policy pass sets

  const auto replacements = source::Replacements::load(rules);
  const auto blockers = BlockerCatalog::load(rules);
  const auto rewrites = MigrationRewrites::load(rules);
  std::vector<ApiUse> uses = uses_from_lint(report, replacements, blockers, rewrites);
  // The inactive branch is not lint's AST work: uses_from_lint does not see it.
  for (const auto& u : uses) EXPECT_NE(u.location.line, 13u) << u.api;
  const size_t active = uses.size();
  for (auto& u : uses_in_inactive_branches(report, replacements)) uses.push_back(std::move(u));
  ASSERT_EQ(uses.size(), active + 1);
  const ApiUse& inactive = uses.back();
  EXPECT_EQ(inactive.api, "TORCH_CHECK");
  EXPECT_EQ(inactive.location.line, 13u);
  EXPECT_EQ(inactive.disposition, Disposition::Manual);
  EXPECT_EQ(inactive.replacement, "STD_TORCH_CHECK");
  EXPECT_FALSE(inactive.fix.has_value());
  EXPECT_NE(inactive.note.find("Needs a human: in `#if defined(LEGACY_DEBUG_CHECKS)`"), std::string::npos) << inactive.note;

  PlanInputs in;
  in.uses = uses;
  in.baseline = inputs::ApiCatalog::current().baseline();
  const MigrationPlan plan = build_plan(std::move(in), blockers);
  size_t manual_checks = 0, fixable_checks = 0;
  for (const auto& g : plan.apis)
    if (g.api == "TORCH_CHECK") {
      manual_checks = g.counts.manual;
      fixable_checks = g.counts.fixable;
    }
  // Line 17 and the body of the file's own CHECK_SMALL (line 10) are rewritten by --fix; the body of
  // the header's CHECK_POSITIVE (check_macros.h:7) and the inactive branch (line 13) need a human.
  EXPECT_EQ(fixable_checks, 2u);
  EXPECT_EQ(manual_checks, 2u);
}

}  // namespace
}  // namespace torchabi::migration
