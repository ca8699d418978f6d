// `torchabi lint` and `torchabi check` include the registration checks of
// issue 4 (schema-, boxed-, backend-, torchbind-): every fixture under
// fixtures/schema/<rule>/fires must report its rule through the CLI, and its
// clean twin must not. The checks themselves are unit-tested in
// tests/unit/schema; this is about the wiring: same inputs, reporters,
// suppressions and exit codes as the rest of lint.
#include <gtest/gtest.h>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

namespace fs = std::filesystem;

std::string schema_fixture(const std::string& rel) { return fixtures() + "/schema/" + rel; }

// The .cpp files of one fixture directory, then `--` and its flags: Debian's
// libtorch-dev for the legacy fixtures, the stand-in stable headers otherwise.
std::vector<std::string> fixture_args(const std::string& dir) {
  std::vector<std::string> args;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cpp") args.push_back(e.path().string());
  std::sort(args.begin(), args.end());
  args.push_back("--");
  args.push_back("-std=c++17");
  args.push_back(fs::exists(dir + "/legacy") ? "-I/usr/include/torch/csrc/api/include"
                                              : "-I" + schema_fixture("include"));
  return args;
}

struct Case {
  std::string rule;
  std::string fires;  // fixture directory (under fixtures/schema) where the rule must fire
  std::string clean;  // its corrected twin, where it must not
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.rule; }

class RegistrationRuleThroughLint : public ::testing::TestWithParam<Case> {};

TEST_P(RegistrationRuleThroughLint, FiresOnItsFixtureAndNotOnTheTwin) {
  const Case& c = GetParam();
  auto fires = lint_json(fixture_args(schema_fixture(c.fires)));
  ASSERT_NE(fires.exit_code, 2) << fires.err;
  EXPECT_FALSE(findings_of(fires.json(), c.rule).empty()) << c.rule << " did not fire:\n" << fires.out << fires.err;

  // The TorchBind cases share one clean twin parsed against libtorch-dev's
  // headers (~10 s): its results are cached across the cases in the build
  // tree, which also runs the registration checks from cached lint results.
  std::vector<std::string> args = {"lint", "--format", "json", "--cache-dir",
                                   build_dir() + "/test-cache/lint-registrations"};
  for (auto& a : fixture_args(schema_fixture(c.clean))) args.push_back(a);
  auto clean = run_torchabi(args);
  ASSERT_NE(clean.exit_code, 2) << clean.err;
  EXPECT_TRUE(findings_of(clean.json(), c.rule).empty()) << c.rule << " fired on the clean twin:\n" << clean.out;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& e : fs::directory_iterator(schema_fixture(""))) {
    const std::string rule = e.path().filename().string();
    if (!fs::exists(e.path() / "fires")) continue;
    // TorchBind fixtures share one corrected twin: a class with everything
    // torch.compile needs.
    const std::string clean = fs::exists(e.path() / "clean") ? rule + "/clean" : "torchbind-complete/clean";
    out.push_back({rule, rule + "/fires", clean});
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.rule < b.rule; });
  return out;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, RegistrationRuleThroughLint, ::testing::ValuesIn(cases()),
                         [](const auto& info) {
                           std::string name = info.param.rule;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(LintRegistrations, EveryRuleWithAFixtureIsCovered) {
  // A registration rule without a fixture pair would silently drop out of the
  // parameterised test above.
  std::vector<std::string> rules;
  for (const auto& e : fs::directory_iterator(source_dir() + "/rules/checks")) {
    const std::string id = e.path().stem().string();
    if (id.starts_with("schema-") || id.starts_with("boxed-") || id.starts_with("backend-") ||
        id.starts_with("torchbind-"))
      rules.push_back(id);
  }
  std::sort(rules.begin(), rules.end());
  std::vector<std::string> covered;
  for (const auto& c : cases()) covered.push_back(c.rule);
  EXPECT_EQ(covered, rules);
}

TEST(LintRegistrations, DefAndImplInDifferentFilesOfACompileDatabaseAreMatched) {
  // schema-impl-without-def/clean defines the op in defs.cpp and implements it
  // in kernels.cpp; linting through -p must see both.
  const std::string dir = schema_fixture("schema-impl-without-def/clean");
  const std::string build = make_temp_dir();
  std::ofstream(build + "/compile_commands.json")
      << "[{\"directory\": \"" << dir << "\", \"command\": \"c++ -std=c++17 -I" << schema_fixture("include")
      << " -c defs.cpp\", \"file\": \"defs.cpp\"},"
      << " {\"directory\": \"" << dir << "\", \"command\": \"c++ -std=c++17 -I" << schema_fixture("include")
      << " -c kernels.cpp\", \"file\": \"kernels.cpp\"}]";
  auto r = lint_json({"-p", build, "--project-root", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(findings_of(r.json(), "schema-impl-without-def").empty()) << r.out;
  EXPECT_TRUE(findings_of(r.json(), "schema-def-without-impl").empty()) << r.out;

  // Only kernels.cpp: the impl now has no def anywhere in what was linted.
  auto one = lint_json({"-p", build, "--project-root", dir, dir + "/kernels.cpp"});
  ASSERT_NE(one.exit_code, 2) << one.err;
  EXPECT_EQ(findings_of(one.json(), "schema-impl-without-def").size(), 1u) << one.out;
}

TEST(LintRegistrations, InlineSuppressionsApply) {
  const std::string src = schema_fixture("boxed-stack-type-mismatch/fires/ops.cpp");
  auto before = lint_json({src, "--", "-std=c++17", "-I" + schema_fixture("include")});
  const auto found = findings_of(before.json(), "boxed-stack-type-mismatch");
  ASSERT_EQ(found.size(), 1u) << before.out;
  EXPECT_EQ(before.exit_code, 1);

  // The same file with a suppression on the line above the finding.
  std::string text = read_all(src);
  size_t at = 0;
  for (int line = 1; line < found[0].line; ++line) at = text.find('\n', at) + 1;
  text.insert(at, "// torchabi: ignore[boxed-stack-type-mismatch] the test checks suppressions\n");
  const std::string copy = write_file(make_temp_dir(), "ops.cpp", text);
  auto after = lint_json({copy, "--", "-std=c++17", "-I" + schema_fixture("include")});
  EXPECT_EQ(after.exit_code, 0) << after.out;
  EXPECT_TRUE(findings_of(after.json(), "boxed-stack-type-mismatch").empty()) << after.out;
  EXPECT_EQ(after.json()["summary"].value("suppressed", -1), 1) << after.out;
}

TEST(LintRegistrations, CheckOnASourceTreeReportsThem) {
  const std::string tree = make_temp_dir();
  fs::copy(schema_fixture("boxed-stack-index-out-of-range/fires/ops.cpp"), tree + "/ops.cpp");
  fs::create_directories(tree + "/build");
  std::ofstream(tree + "/build/compile_commands.json")
      << "[{\"directory\": \"" << tree << "\", \"command\": \"c++ -std=c++17 -I" << schema_fixture("include")
      << " -c ops.cpp\", \"file\": \"ops.cpp\"}]";
  auto r = run_torchabi({"check", tree, "--format", "json", "--cache-dir", make_temp_dir()});
  ASSERT_NE(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(findings_of(r.json(), "boxed-stack-index-out-of-range").size(), 1u) << r.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint
