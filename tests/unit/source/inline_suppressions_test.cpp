// `// torchabi: ignore[rule] reason`: parsing, what it covers, and the
// finding for a suppression without a reason.
#include <gtest/gtest.h>

#include "analyzers/source/inline_suppressions.h"
#include "test_helpers.h"

namespace torchabi::source::test {
namespace {

TEST(InlineSuppression, ParsesIdsGlobsAndReason) {
  auto s = parse_suppression_comment("// torchabi: ignore[source-unstable-api, version-*] debug helper, not shipped");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->rules, (std::vector<std::string>{"source-unstable-api", "version-*"}));
  EXPECT_EQ(s->reason, "debug helper, not shipped");
  auto c = parse_suppression_comment("/* torchabi: ignore[source-unstable-macro] */");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->reason, "");
  EXPECT_FALSE(parse_suppression_comment("// torchabi is great"));
  EXPECT_FALSE(parse_suppression_comment("// ignore[source-unstable-api] no tag"));
}

findings::Finding at(const std::string& rule, uint32_t line) {
  findings::Finding f;
  f.rule = rule;
  f.location.file = "/p/a.cpp";
  f.location.line = line;
  return f;
}

TEST(InlineSuppression, CoversItsLineAndTheNextOnly) {
  findings::Report report;
  report.findings = {at("source-unstable-api", 10), at("source-unstable-api", 11), at("source-unstable-api", 12),
                     at("source-unstable-macro", 10)};
  InlineSuppression s{"/p/a.cpp", 10, 3, {"source-unstable-api"}, "reviewed"};
  apply_inline_suppressions(report, {s, s});  // seen by two TUs: counted once
  ASSERT_EQ(report.findings.size(), 2u);
  EXPECT_EQ(report.findings[0].location.line, 12u);
  EXPECT_EQ(report.findings[1].rule, "source-unstable-macro");
  EXPECT_EQ(report.suppressed, 2u);
}

TEST(InlineSuppression, WithoutReasonStillSuppressesAndIsReported) {
  findings::Report report;
  report.findings = {at("source-shim-declaration-mismatch", 5)};
  apply_inline_suppressions(report, {InlineSuppression{"/p/a.cpp", 4, 1, {"source-shim-declaration-mismatch"}, ""}});
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].rule, "source-suppression-without-reason");
  EXPECT_EQ(report.findings[0].location.line, 4u);
  EXPECT_EQ(report.suppressed, 1u);
}

TEST(InlineSuppression, FixturePairFindsTheCommentsInTheSource) {
  TuResult fires = lint_file(lint_fixture("source-suppression-without-reason/fires.cpp"), {}, false);
  ASSERT_EQ(fires.suppressions.size(), 1u);
  EXPECT_EQ(fires.suppressions[0].line, 4u);
  EXPECT_TRUE(fires.suppressions[0].reason.empty());
  TuResult clean = lint_file(lint_fixture("source-suppression-without-reason/clean.cpp"), {}, false);
  ASSERT_EQ(clean.suppressions.size(), 1u);
  EXPECT_EQ(clean.suppressions[0].reason, "legacy probe, removed in the next release");
}

}  // namespace
}  // namespace torchabi::source::test
