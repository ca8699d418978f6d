#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "common/input_error.h"
#include "findings/config.h"
#include "findings/policy.h"
#include "findings/rule_registry.h"

namespace fs = std::filesystem;
using namespace torchabi::findings;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("cfg-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
    return path / name;
  }
  static inline int counter = 0;
};

Finding unstable_import(const std::string& lib, const std::string& sym) {
  Finding f;
  f.rule = "binary-unstable-import";
  f.location.file = lib;
  f.location.symbol = sym;
  f.message = "imports " + sym;
  return f;
}

}  // namespace

TEST(Config, ReadsYamlAndResolvesTheBaselineRelativeToTheFile) {
  TempDir d;
  auto p = d.write(".torchabi.yaml",
                   "fail-on: warning\n"
                   "target-version: '2.10'\n"
                   "baseline: ci/baseline.json\n"
                   "severity: {binary-unknown-shim: error}\n"
                   "suppress:\n"
                   "  - rule: binary-unstable-import\n"
                   "    symbol: 'c10::*'\n"
                   "    reason: legacy op kept until 2.12\n");
  Config c = Config::load_file(p.string());
  EXPECT_EQ(c.fail_on, Severity::Warning);
  EXPECT_EQ(c.target_version, "2.10");
  EXPECT_EQ(c.baseline, (d.path / "ci/baseline.json").string());
  EXPECT_EQ(c.severity.at("binary-unknown-shim"), Severity::Error);
  ASSERT_EQ(c.suppress.size(), 1u);
  EXPECT_EQ(c.suppress[0].symbol, "c10::*");
}

TEST(Config, ReadsToolTorchabiFromPyproject) {
  TempDir d;
  auto p = d.write("pyproject.toml",
                   "[project]\nname = 'x'\n\n[tool.torchabi]\nfail-on = 'note'\nignore = ['binary-unknown-shim']\n");
  Config c = Config::load_file(p.string());
  EXPECT_EQ(c.fail_on, Severity::Note);
  EXPECT_EQ(c.ignore, std::vector<std::string>{"binary-unknown-shim"});
}

TEST(Config, SuppressionWithoutReasonIsRejectedNamingTheFile) {
  TempDir d;
  auto p = d.write(".torchabi.yaml", "suppress:\n  - rule: binary-unstable-import\n    reason: '  '\n");
  try {
    Config::load_file(p.string());
    FAIL() << "expected InputError";
  } catch (const torchabi::InputError& e) {
    EXPECT_EQ(e.input(), p.string());
    EXPECT_NE(std::string(e.what()).find("no reason"), std::string::npos);
  }
}

TEST(Config, TyposAreErrorsNotSilentDefaults) {
  TempDir d;
  EXPECT_THROW(Config::load_file(d.write("a.yaml", "fail_on: error\n").string()), torchabi::InputError);
  EXPECT_THROW(Config::load_file(d.write("b.yaml", "severity: {binary-nope: error}\n").string()), torchabi::InputError);
  EXPECT_THROW(Config::load_file(d.write("c.yaml", "fail-on: fatal\n").string()), torchabi::InputError);
  EXPECT_THROW(Config::load_file(d.write("d.yaml", "[unclosed\n").string()), torchabi::InputError);
  EXPECT_THROW(Config::load_file(d.write("e.toml", "[tool.torchabi\n").string()), torchabi::InputError);
  EXPECT_THROW(Config::load_file((d.path / "missing.yaml").string()), torchabi::InputError);
}

TEST(Config, DiscoveryWalksUpFromTheInputAndSkipsUnrelatedPyproject) {
  TempDir d;
  d.write(".torchabi.yaml", "fail-on: note\n");
  d.write("pkg/pyproject.toml", "[project]\nname = 'x'\n");
  auto lib = d.write("pkg/build/lib/ext.so", "");
  Config c = Config::discover({lib.string()});
  EXPECT_EQ(c.source, (d.path / ".torchabi.yaml").string());
  EXPECT_EQ(c.fail_on, Severity::Note);
}

TEST(Policy, DefaultSeverityOverridesSuppressionsAndBaseline) {
  Report r;
  r.add(unstable_import("/x/ext.so", "c10::foo()"));
  r.add(unstable_import("/x/ext.so", "at::bar()"));
  Finding shim;
  shim.rule = "binary-unknown-shim";
  shim.location.file = "/x/ext.so";
  shim.location.symbol = "aoti_torch_future";
  shim.message = "unknown";
  r.add(shim);

  Config c;
  Suppression s;
  s.rule = "binary-unstable-import";
  s.symbol = "c10::*";
  s.library = "ext.so";
  s.reason = "kept on purpose";
  c.suppress.push_back(s);
  c.severity["binary-unknown-shim"] = Severity::Note;

  Report copy = r;
  apply_policy(copy, c, RuleRegistry::current(), nullptr);
  ASSERT_EQ(copy.findings.size(), 2u);
  EXPECT_EQ(copy.suppressed, 1u);
  for (const auto& f : copy.findings) {
    if (f.rule == "binary-unknown-shim") EXPECT_EQ(f.severity, Severity::Note);
    else EXPECT_EQ(f.severity, Severity::Error);
  }

  // A baseline made from today's findings accepts them all, but not a new one.
  Baseline b;
  for (const auto& f : r.findings) b.fingerprints.insert(f.fingerprint());
  Report next = r;
  next.add(unstable_import("/x/ext.so", "at::baz()"));
  next.findings[0].location.line = 99;  // line moves do not matter
  apply_policy(next, Config{}, RuleRegistry::current(), &b);
  ASSERT_EQ(next.findings.size(), 1u);
  EXPECT_EQ(next.findings[0].location.symbol, "at::baz()");
  EXPECT_EQ(next.baselined, 3u);
  EXPECT_EQ(worst_severity(next), Severity::Error);
}

TEST(Policy, BaselineRoundTripsThroughItsFile) {
  TempDir d;
  Report r;
  r.add(unstable_import("a.so", "c10::x()"));
  auto p = d.write("baseline.json", Baseline::serialize(r));
  Baseline b = Baseline::load(p.string());
  EXPECT_EQ(b.fingerprints.count(r.findings[0].fingerprint()), 1u);
  EXPECT_THROW(Baseline::load(d.write("bad.json", "{\"x\": 1}").string()), torchabi::InputError);
  EXPECT_THROW(Baseline::load(d.write("worse.json", "{").string()), torchabi::InputError);
}

TEST(Policy, UnregisteredRuleIdIsAProgrammingError) {
  Report r;
  Finding f;
  f.rule = "binary-not-registered";
  r.add(f);
  EXPECT_THROW(apply_policy(r, Config{}, RuleRegistry::current(), nullptr), std::out_of_range);
}
