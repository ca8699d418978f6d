#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "findings/policy.h"
#include "findings/rule_registry.h"
#include "reporters/reporter.h"

using namespace torchabi;
using namespace torchabi::findings;
using nlohmann::json;

namespace {

Report sample() {
  Report r;
  r.command = "audit";
  Subject s;
  s.kind = "library";
  s.path = "ext.so";
  s.verdict = "UNSTABLE";
  s.loads_on = "only the PyTorch release it was built with";
  s.facts.emplace_back("needed", "libc10.so, libc.so.6");
  r.subjects.push_back(s);
  Finding a;
  a.rule = "binary-unstable-import";
  a.location.file = "ext.so";
  a.location.symbol = "c10::detail::torchCheckFail(char const*, char const*, unsigned int, char const*)";
  a.message = "imports c10::detail::torchCheckFail";
  a.help = "use STD_TORCH_CHECK";
  a.notes = {"from c10"};
  r.add(a);
  Finding b;
  b.rule = "binary-unknown-shim";
  b.location.file = "src/op.cpp";
  b.location.line = 12;
  b.location.column = 5;
  b.message = "uses | pipes";
  b.fix = FixIt{"src/op.cpp", 100, 108, "STD_TORCH_CHECK", FixSafety::Safe, "rename the macro", {}, {}};
  r.add(b);
  apply_policy(r, Config{}, RuleRegistry::current(), nullptr);
  return r;
}

}  // namespace

TEST(TextReporter, CompilerStyleLinesWithRuleIds) {
  auto text = reporters::render_text(sample(), RuleRegistry::current(), {});
  EXPECT_NE(text.find("src/op.cpp:12:5: warning: uses | pipes [binary-unknown-shim]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ext.so: error: imports c10::detail::torchCheckFail [binary-unstable-import]\n  note: from c10\n  help: use STD_TORCH_CHECK\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("1 error, 1 warning, 0 notes in 1 library"), std::string::npos) << text;
  EXPECT_EQ(text.find("\033["), std::string::npos) << "no colour unless asked";
  reporters::RenderOptions colour;
  colour.color = true;
  EXPECT_NE(reporters::render_text(sample(), RuleRegistry::current(), colour).find("\033[1;31m"), std::string::npos);
}

TEST(JsonReporter, StableFieldNames) {
  json j = json::parse(reporters::render_json(sample(), RuleRegistry::current()));
  EXPECT_EQ(j["tool"]["name"], "torchabi");
  EXPECT_EQ(j["command"], "audit");
  ASSERT_EQ(j["findings"].size(), 2u);
  const auto& f = j["findings"][0];
  EXPECT_EQ(f["rule"], "binary-unstable-import");
  EXPECT_EQ(f["severity"], "error");
  EXPECT_EQ(f["location"]["symbol"].get<std::string>().rfind("c10::detail", 0), 0u);
  EXPECT_EQ(j["findings"][1]["fix"]["safety"], "safe");
  EXPECT_EQ(j["findings"][1]["location"]["line"], 12);
  EXPECT_EQ(j["subjects"][0]["verdict"], "UNSTABLE");
  EXPECT_EQ(j["subjects"][0]["facts"]["needed"], "libc10.so, libc.so.6");
  EXPECT_EQ(j["summary"]["error"], 1);
  EXPECT_EQ(j["summary"]["warning"], 1);
}

// Two facts under one name (two libraries legacy by design) are both kept.
TEST(JsonReporter, AFactSaidTwiceKeepsBothValues) {
  findings::Report r = sample();
  r.subjects[0].facts.emplace_back("legacy by design", "target _C: ...");
  r.subjects[0].facts.emplace_back("legacy by design", "target _moe_C: ...");
  json j = json::parse(reporters::render_json(r, RuleRegistry::current()));
  EXPECT_EQ(j["subjects"][0]["facts"]["legacy by design"], "target _C: ...; target _moe_C: ...");
}

TEST(SarifReporter, ValidShapeForCodeScanning) {
  json j = json::parse(reporters::render_sarif(sample(), RuleRegistry::current()));
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run = j["runs"][0];
  const auto& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 2u);
  for (const auto& res : run["results"]) {
    size_t idx = res["ruleIndex"];
    ASSERT_LT(idx, rules.size());
    EXPECT_EQ(rules[idx]["id"], res["ruleId"]);
    EXPECT_FALSE(res["message"]["text"].get<std::string>().empty());
  }
  const auto& src = run["results"][1];
  EXPECT_EQ(src["locations"][0]["physicalLocation"]["region"]["startLine"], 12);
  EXPECT_EQ(src["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]["charLength"], 8);
  const auto& bin = run["results"][0];
  EXPECT_FALSE(bin["locations"][0]["physicalLocation"].contains("region"));
  EXPECT_EQ(bin["locations"][0]["logicalLocations"][0]["kind"], "function");
}

TEST(MarkdownReporter, EscapesTableCellsAndGroupsByRule) {
  auto md = reporters::render_markdown(sample(), RuleRegistry::current());
  EXPECT_NE(md.find("| `ext.so` | UNSTABLE |"), std::string::npos) << md;
  EXPECT_NE(md.find("uses \\| pipes"), std::string::npos) << md;
  EXPECT_NE(md.find("<code>binary-unstable-import</code> — 1 ×"), std::string::npos) << md;
}
