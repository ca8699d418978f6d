// `torchabi lint` and `torchabi check` include the registration checks of
// issue 4 (schema-, boxed-, backend-, torchbind-): every fixture under
// fixtures/schema/<rule>/fires must report its rule through the CLI, and its
// clean twin must not. The checks themselves are unit-tested in
// tests/unit/schema; this is about the wiring: same inputs, reporters,
// suppressions and exit codes as the rest of lint.
#include <gtest/gtest.h>

#include <map>

#include "lint_fixtures.h"
#include "real_torch.h"

namespace torchabi::e2e::lint {
namespace {

namespace fs = std::filesystem;

std::string schema_fixture(const std::string& rel) { return fixtures() + "/schema/" + rel; }

// The project root, the .cpp files of one fixture directory, then `--` and its flags: Debian's
// libtorch-dev for the legacy fixtures, the stand-in stable headers otherwise.
std::vector<std::string> fixture_args(const std::string& dir) {
  // Each fixture directory is a project of its own (the repository around it is not).
  std::vector<std::string> args = {"--project-root", dir};
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
        id.starts_with("torchbind-") || id.starts_with("compile-"))
      rules.push_back(id);
  }
  std::sort(rules.begin(), rules.end());
  std::vector<std::string> covered;
  for (const auto& c : cases()) covered.push_back(c.rule);
  EXPECT_EQ(covered, rules);
}

TEST(LintRegistrations, KernelConstnessSeverityFollowsWhatTheBodyWrites) {
  // const& for a Tensor(a!) and an unwritten non-const& are notes; a
  // non-const& the kernel writes without the schema saying so is a warning.
  auto r = lint_json(fixture_args(schema_fixture("boxed-signature-mismatch/constness")));
  ASSERT_NE(r.exit_code, 2) << r.err;
  std::map<std::string, std::string> severity;
  const nlohmann::json report = r.json();
  for (const auto& f : report["findings"]) {
    if (f["rule"] != "boxed-signature-mismatch") continue;
    const std::string m = f["message"];
    for (const char* k : {"fill_out", "reset", "peek", "scribble"})
      if (m.find(std::string("'") + k + "'") != std::string::npos) severity[k] = f["severity"];
  }
  EXPECT_EQ(severity, (std::map<std::string, std::string>{
                          {"fill_out", "note"}, {"peek", "note"}, {"reset", "warning"}, {"scribble", "warning"}}))
      << r.out;
  EXPECT_EQ(r.exit_code, 0) << r.out;  // nothing at the default --fail-on error
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

  // Only kernels.cpp: the impl now has no def anywhere in what was linted,
  // but the def may well be in defs.cpp: a note, not an error.
  auto one = lint_json({"-p", build, "--project-root", dir, dir + "/kernels.cpp"});
  ASSERT_NE(one.exit_code, 2) << one.err;
  EXPECT_EQ(findings_of(one.json(), "schema-impl-without-def").size(), 1u) << one.out;
  EXPECT_EQ(one.exit_code, 0) << one.out;
}

// The rows of `rule` in a JSON report.
std::vector<nlohmann::json> rows_of(const nlohmann::json& report, const std::string& rule) {
  std::vector<nlohmann::json> out;
  for (const auto& f : report["findings"])
    if (f["rule"] == rule) out.push_back(f);
  return out;
}

TEST(LintRegistrations, CrossFileChecksAreErrorsOnlyWhenTheWholeProjectIsLinted) {
  // kernels.cpp implements an op no file of the project defines.
  const std::string dir = schema_fixture("schema-impl-without-def/fires");
  const std::string build = make_temp_dir();
  std::ofstream(build + "/compile_commands.json")
      << "[{\"directory\": \"" << dir << "\", \"command\": \"c++ -std=c++17 -I" << schema_fixture("include")
      << " -c kernels.cpp\", \"file\": \"kernels.cpp\"}]";

  // One file named on the command line: the def may be in a file not linted.
  auto single = lint_json({dir + "/kernels.cpp", "--", "-std=c++17", "-I" + schema_fixture("include")});
  ASSERT_NE(single.exit_code, 2) << single.err;
  auto notes = rows_of(single.json(), "schema-impl-without-def");
  ASSERT_EQ(notes.size(), 1u) << single.out;
  EXPECT_EQ(notes[0]["severity"], "note");
  EXPECT_NE(notes[0]["notes"].dump().find("lint the whole project with -p BUILD_DIR or check ."), std::string::npos)
      << notes[0].dump();
  EXPECT_EQ(single.exit_code, 0) << single.out;

  // The compile database (the whole project): nothing defines it anywhere.
  auto whole = lint_json({"-p", build, "--project-root", dir});
  ASSERT_NE(whole.exit_code, 2) << whole.err;
  auto errors = rows_of(whole.json(), "schema-impl-without-def");
  ASSERT_EQ(errors.size(), 1u) << whole.out;
  EXPECT_EQ(errors[0]["severity"], "error");
  EXPECT_EQ(whole.exit_code, 1) << whole.out;

  // `check DIR` lints the directory's compile database: the whole project too.
  const std::string tree = make_temp_dir();
  fs::copy(dir + "/kernels.cpp", tree + "/kernels.cpp");
  fs::create_directories(tree + "/build");
  std::ofstream(tree + "/build/compile_commands.json")
      << "[{\"directory\": \"" << tree << "\", \"command\": \"c++ -std=c++17 -I" << schema_fixture("include")
      << " -c kernels.cpp\", \"file\": \"kernels.cpp\"}]";
  auto check = run_torchabi({"check", tree, "--format", "json", "--cache-dir", make_temp_dir()});
  ASSERT_NE(check.exit_code, 2) << check.err;
  auto checked = rows_of(check.json(), "schema-impl-without-def");
  ASSERT_EQ(checked.size(), 1u) << check.out;
  EXPECT_EQ(checked[0]["severity"], "error");
}

TEST(LintRegistrations, RulesImportWritesTheShippedKernelTypesFromTheRealHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  // scripts/build-kernel-types.sh copies this file over rules/schema/kernel_types.yaml.
  const std::string out = make_temp_dir() + "/rules";
  auto r = run_torchabi({"rules", "import", "--torch-include", test::real_torch_include(), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_all(out + "/schema/kernel_types.yaml"), read_all(source_dir() + "/rules/schema/kernel_types.yaml"))
      << "rules/schema/kernel_types.yaml is stale: run scripts/build-kernel-types.sh";
}

TEST(LintRegistrations, EveryConvertibleTypeAgainstTheRealHeadersIsClean) {
  TORCHABI_REQUIRE_REAL_TORCH();
  // fixtures/schema/real-headers/*/clean: TORCH_BOX kernels for every type the
  // real headers convert; the flags (a TORCH_TARGET_VERSION) are in `real-torch`.
  for (const char* c : {"every-type", "old-target"}) {
    const std::string dir = schema_fixture(std::string("real-headers/") + c + "/clean");
    std::vector<std::string> args = {dir + "/ops.cpp", "--", "-std=c++17", "-I" + test::real_torch_include()};
    std::ifstream flags(dir + "/real-torch");
    for (std::string f; flags >> f;) args.push_back(f);
    auto r = lint_json(args);
    ASSERT_NE(r.exit_code, 2) << r.err;
    const auto report = r.json();  // held: a range-for over a temporary's member dangles
    for (const auto& f : report["findings"]) {
      const std::string rule = f["rule"];
      EXPECT_FALSE(rule.starts_with("boxed-") || rule.starts_with("schema-") || rule.starts_with("backend-"))
          << c << ": " << f.dump();
    }
    EXPECT_EQ(r.exit_code, 0) << c << ":\n" << r.out;
  }
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

TEST(LintRegistrations, TensorlessOpsWithOnlyBackendKernels) {
  // Stable and legacy: an op without a Tensor argument whose kernels are all
  // under backend keys can never be called (scripts/against-torch/
  // tensorless_dispatch.sh observes it in real torch). Through a compile
  // database (the whole project): errors, and a warning for the Generator op.
  struct Expect {
    std::string fixture;
    std::string include;
    std::map<std::string, std::string> severity_by_op;
  };
  const std::vector<Expect> expects = {
      {"schema-tensorless-backend-kernel/fires", schema_fixture("include"),
       {{"myops::make_buffer", "error"}, {"myops::version", "error"}}},
      {"schema-tensorless-backend-kernel/legacy/fires", "/usr/include/torch/csrc/api/include",
       {{"legacy_tl::make_buffer", "error"}, {"legacy_tl::version", "error"}, {"legacy_tl::draw_seed", "warning"}}},
  };
  for (const auto& e : expects) {
    const std::string dir = schema_fixture(e.fixture);
    const std::string build = make_temp_dir();
    std::ofstream(build + "/compile_commands.json")
        << "[{\"directory\": \"" << dir << "\", \"command\": \"c++ -std=c++17 -I" << e.include
        << " -c ops.cpp\", \"file\": \"ops.cpp\"}]";
    auto r = lint_json({"-p", build, "--project-root", dir});
    ASSERT_NE(r.exit_code, 2) << r.err;
    std::map<std::string, std::string> seen;
    for (const auto& f : rows_of(r.json(), "schema-tensorless-backend-kernel")) {
      const std::string m = f["message"];
      seen[m.substr(1, m.find('\'', 1) - 1)] = f["severity"];
      EXPECT_NE(m.find("takes no Tensor, so the dispatcher never reaches its "), std::string::npos) << m;
      EXPECT_NE(f.dump().find("CompositeExplicitAutograd, m)"), std::string::npos) << f.dump();
    }
    EXPECT_EQ(seen, e.severity_by_op) << r.out;
    EXPECT_EQ(r.exit_code, 1) << r.out;

    // The corrected twin lints clean of it, and of every other registration rule.
    const std::string clean_dir = schema_fixture(e.fixture.substr(0, e.fixture.size() - 5) + "clean");
    auto clean = lint_json(fixture_args(clean_dir));
    ASSERT_NE(clean.exit_code, 2) << clean.err;
    const auto clean_report = clean.json();  // held: a range-for over a temporary's member dangles
    for (const auto& f : clean_report["findings"]) {
      const std::string rule = f["rule"];
      EXPECT_FALSE(rule.starts_with("schema-") || rule.starts_with("boxed-")) << clean_dir << ": " << f.dump();
    }
  }
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
