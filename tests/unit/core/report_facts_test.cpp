// Report::take_facts: data that lint checks hand back through subject facts
// is taken out completely, in order, and other facts stay where they were.
#include <gtest/gtest.h>

#include "findings/finding.h"

namespace torchabi::findings {
namespace {

TEST(ReportFacts, TakesEveryFactWithTheKeyAndLeavesTheRest) {
  Report r;
  Subject a, b;
  a.facts = {{"stable APIs used", "4"}, {"internal", "one"}, {"internal", "two"}};
  b.facts = {{"internal", "three"}, {"TORCH_TARGET_VERSION", "2.10"}};
  r.subjects = {a, b};

  EXPECT_EQ(r.take_facts("internal"), (std::vector<std::string>{"one", "two", "three"}));
  using Facts = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(r.subjects[0].facts, (Facts{{"stable APIs used", "4"}}));
  EXPECT_EQ(r.subjects[1].facts, (Facts{{"TORCH_TARGET_VERSION", "2.10"}}));
  EXPECT_TRUE(r.take_facts("internal").empty());
}

}  // namespace
}  // namespace torchabi::findings
