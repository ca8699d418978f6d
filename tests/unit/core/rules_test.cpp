// Every rule documents itself completely: `torchabi explain` must never print
// an empty section, and ids must be usable in configs and SARIF.
#include <gtest/gtest.h>
#include <regex>

#include "findings/rule_registry.h"
#include "inputs/rules_source.h"

using namespace torchabi::findings;

TEST(RuleRegistry, EveryRuleIsCompleteAndKebabCase) {
  const auto& reg = RuleRegistry::current();
  ASSERT_FALSE(reg.all().empty());
  const std::regex kebab("^[a-z]+(-[a-z0-9]+)+$");
  for (const auto& [id, d] : reg.all()) {
    EXPECT_TRUE(std::regex_match(id, kebab)) << id;
    EXPECT_FALSE(d.summary.empty()) << id;
    EXPECT_FALSE(d.description.empty()) << id;
    EXPECT_FALSE(d.instead.empty()) << id;
  }
}

TEST(RuleRegistry, UnknownIdsAreAnError) {
  EXPECT_EQ(RuleRegistry::current().find("binary-no-such-rule"), nullptr);
  EXPECT_THROW(RuleRegistry::current().get("binary-no-such-rule"), std::out_of_range);
}
