// The CLI contract shared by all subcommands: exit codes, one-line errors,
// rules documentation.
#include <gtest/gtest.h>

#include "cli_harness.h"

using torchabi::e2e::run_torchabi;

TEST(CoreCli, NoSubcommandIsAUsageError) {
  auto r = run_torchabi({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("subcommand is required"), std::string::npos) << r.err;
}

TEST(CoreCli, UnknownOptionIsAOneLineUsageError) {
  auto r = run_torchabi({"rules", "list", "--no-such-flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CoreCli, ExplainPrintsTheRuleDocumentation) {
  auto r = run_torchabi({"explain", "binary-unstable-import"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Instead:"), std::string::npos);
  EXPECT_NE(r.out.find("torch::stable"), std::string::npos);
}

TEST(CoreCli, ExplainUnknownRuleSuggestsCloseIds) {
  auto r = run_torchabi({"explain", "unstable-import"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean: binary-unstable-import"), std::string::npos) << r.err;
}

TEST(CoreCli, RulesListJsonHasEveryGroupedRule) {
  auto r = run_torchabi({"rules", "list", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  ASSERT_TRUE(j.is_array());
  ASSERT_FALSE(j.empty());
  for (const auto& rule : j) {
    const std::string id = rule["id"];
    EXPECT_EQ(id.substr(0, id.find('-')), rule["group"].get<std::string>());
    EXPECT_FALSE(rule["summary"].get<std::string>().empty()) << id;
  }
}

TEST(CoreCli, BrokenRulesDirIsAnInputError) {
  auto r = run_torchabi({"--rules-dir", "/nonexistent/rules", "rules", "list"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/rules"), std::string::npos) << r.err;
}
