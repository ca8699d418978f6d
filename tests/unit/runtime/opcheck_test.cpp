// `torchabi run --torch PYTHON`: how opcheck_run.py's results become findings,
// and what happens without a usable torch (Debian bookworm's python3 has torch
// 1.13, which has no torch.library.opcheck).
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzers/runtime/opcheck/opcheck.h"

namespace torchabi::runtime_opcheck {
namespace {

const char* kResult = R"J({"torch": "2.14.1", "ops": [
  {"op": "myops::flip", "schema": "myops::flip(Tensor x) -> Tensor", "accepted": true,
   "inputs": "(int32[2, 3])", "attempts": ["(float32[2, 3]): RuntimeError: x must be int32 type"],
   "results": {"test_schema": "OpCheckError: test_schema failed: the output aliases the input",
               "test_autograd_registration": "SUCCESS", "test_faketensor": "SUCCESS",
               "test_aot_dispatch_dynamic": "SUCCESS"}},
  {"op": "myops::picky", "accepted": false, "attempts": ["(float32[2, 3]): RuntimeError: no"], "results": {}},
  {"op": "myops::boom", "crash": "killed by signal 11"}]})J";

TEST(Opcheck, EachFailingUtilityIsAFindingWithTheInputs) {
  OpcheckRun run = opcheck_from_json(kResult);
  ASSERT_TRUE(run.ran);
  EXPECT_EQ(run.torch_version, "2.14.1");
  ASSERT_EQ(run.ops.size(), 3u);
  findings::Report report;
  report.subjects.push_back({"extension", "ext.so"});
  add_opcheck_findings(run, "ext.so", "/venv/bin/python", report);
  std::map<std::string, std::vector<const findings::Finding*>> by_rule;
  for (const auto& f : report.findings) by_rule[f.rule].push_back(&f);
  ASSERT_EQ(by_rule["opcheck-test-schema"].size(), 1u);
  const auto& f = *by_rule["opcheck-test-schema"][0];
  EXPECT_EQ(f.location.symbol, "myops::flip");
  EXPECT_NE(f.message.find("the output aliases the input"), std::string::npos) << f.message;
  EXPECT_EQ(f.notes.front(), "inputs (int32[2, 3])");
  EXPECT_TRUE(by_rule["opcheck-test-faketensor"].empty()) << "SUCCESS is not a finding";
  // an op no inputs were found for, and one whose child crashed: notes saying opcheck did not run on them
  ASSERT_EQ(by_rule["opcheck-not-run"].size(), 2u);
  EXPECT_NE(by_rule["opcheck-not-run"][0]->message.find("myops::picky"), std::string::npos);
  EXPECT_EQ(by_rule["opcheck-not-run"][0]->notes.front(), "tried (float32[2, 3]): RuntimeError: no");
  EXPECT_NE(by_rule["opcheck-not-run"][1]->message.find("killed by signal 11"), std::string::npos);
  // which inputs each op ran with
  bool said = false;
  for (const auto& [k, v] : report.subjects[0].facts) said = said || (k == "opcheck myops::flip" && v == "inputs (int32[2, 3])");
  EXPECT_TRUE(said);
}

TEST(Opcheck, ARunThatCouldNotStartSaysWhy) {
  OpcheckRun run = opcheck_from_json(R"J({"error": "torch cannot be imported: ModuleNotFoundError: torch"})J");
  EXPECT_FALSE(run.ran);
  findings::Report report;
  add_opcheck_findings(run, "ext.so", "python3", report);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].rule, "opcheck-not-run");
  EXPECT_NE(report.findings[0].message.find("torch cannot be imported"), std::string::npos);
  EXPECT_FALSE(opcheck_from_json("not json").ran);
}

TEST(Opcheck, WithoutOpcheckInTheTorchItSaysItDidNotRun) {
  const std::string python = "/usr/bin/python3";
  if (!std::filesystem::exists(python)) GTEST_SKIP() << "no " << python;
  // any file: the script stops before loading it when torch has no opcheck (or cannot be imported)
  OpcheckRun run = run_opcheck(TORCHABI_SOURCE_DIR "/README.md", python, 120);
  EXPECT_FALSE(run.ran);
  EXPECT_FALSE(run.why_not.empty());
  findings::Report report;
  add_opcheck_findings(run, "ext.so", python, report);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].rule, "opcheck-not-run");
}

TEST(Opcheck, AnInterpreterThatDoesNotExistIsNotRun) {
  OpcheckRun run = run_opcheck(TORCHABI_SOURCE_DIR "/README.md", "/nonexistent/python3", 60);
  EXPECT_FALSE(run.ran);
  EXPECT_FALSE(run.why_not.empty());
}

}  // namespace
}  // namespace torchabi::runtime_opcheck
