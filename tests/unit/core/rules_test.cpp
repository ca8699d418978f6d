// Every rule documents itself completely: `torchabi explain` must never print
// an empty section, and ids must be usable in configs and SARIF.
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>
#include <regex>

#include "common/input_error.h"
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

namespace {

// A rules directory with one good entry and one malformed one.
std::string rules_dir_with_a_broken_entry() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "lazy_rules";
  fs::remove_all(dir);
  fs::create_directories(dir / "checks");
  std::ofstream(dir / "checks/binary-good.yaml")
      << "id: binary-good\nseverity: warning\nsummary: s\ndescription: d\ninstead: i\n";
  std::ofstream(dir / "checks/binary-broken.yaml") << "id: binary-broken\nseverity: loud\nsummary: s\n";
  return dir.string();
}

}  // namespace

TEST(RuleRegistry, LazyRegistryReadsOnlyTheEntriesAskedFor) {
  const auto src = torchabi::inputs::RulesSource::directory(rules_dir_with_a_broken_entry());
  EXPECT_THROW(RuleRegistry::load(src), torchabi::InputError);

  const RuleRegistry lazy = RuleRegistry::lazy(src);
  const RuleDoc* good = lazy.find("binary-good");
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(good->severity, Severity::Warning);
  EXPECT_EQ(lazy.find("binary-good"), good);  // read once, the same entry afterwards
  EXPECT_EQ(lazy.find("binary-missing"), nullptr);
  EXPECT_THROW(lazy.find("binary-broken"), torchabi::InputError);
  EXPECT_THROW(lazy.all(), torchabi::InputError);
}

TEST(RuleRegistry, LazyAllMatchesEagerLoad) {
  const auto src = torchabi::inputs::RulesSource::embedded();
  const RuleRegistry eager = RuleRegistry::load(src);
  const RuleRegistry lazy = RuleRegistry::lazy(src);
  ASSERT_NE(lazy.find("binary-unstable-import"), nullptr);
  ASSERT_EQ(lazy.all().size(), eager.all().size());
  for (const auto& [id, d] : eager.all()) EXPECT_EQ(lazy.get(id).summary, d.summary) << id;
}

TEST(RuleRegistry, IdsThatAreNotKebabCaseNeverReachTheFileSystem) {
  // Ids also come from users' config files; "../checks/x" names a real file.
  const RuleRegistry lazy = RuleRegistry::lazy(torchabi::inputs::RulesSource::directory(rules_dir_with_a_broken_entry()));
  EXPECT_EQ(lazy.find("../checks/binary-good"), nullptr);
  EXPECT_EQ(lazy.find(""), nullptr);
  EXPECT_NE(lazy.find("binary-good"), nullptr);
}
