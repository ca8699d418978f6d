// --format github (workflow-command annotations) and the grouped text view
// (--summary, --group-by rule|subject).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cli_harness.h"

using namespace torchabi::e2e;
namespace fs = std::filesystem;

namespace {

std::string newer_lib() { return build_dir() + "/fixtures/stable_ext/libstable_ext_2_12.so"; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Two copies of the library that imports a 2.12 shim, in a directory whose
// name holds every character GitHub makes us escape in a property.
std::vector<std::string> two_copies() {
  const fs::path dir = fs::path(make_temp_dir()) / "a,b:c%d";
  fs::create_directories(dir);
  std::vector<std::string> paths;
  for (const char* n : {"one.so", "two.so"}) {
    fs::copy_file(newer_lib(), dir / n);
    paths.push_back((dir / n).string());
  }
  return paths;
}

}  // namespace

TEST(GithubFormat, OneAnnotationPerFindingWithRuleAndEscapedProperties) {
  if (!fs::exists(newer_lib())) GTEST_SKIP() << newer_lib() << " not built";
  auto paths = two_copies();
  auto r = run_torchabi({"audit", "--format", "github", "--target-version", "2.10", paths[0], paths[1]});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  size_t annotations = 0;
  for (const auto& l : lines_of(r.out)) {
    if (!l.starts_with("::")) continue;
    ++annotations;
    EXPECT_TRUE(l.starts_with("::error file=")) << l;
    EXPECT_NE(l.find("a%2Cb%3Ac%25d"), std::string::npos) << l;  // ',' ':' '%' in the file property
    EXPECT_NE(l.find(",title=version-import-after-target::"), std::string::npos) << l;
    EXPECT_NE(l.find("%0Ahelp: "), std::string::npos) << l;  // multi-line message, newline escaped
  }
  EXPECT_EQ(annotations, 2u) << r.out;
  EXPECT_NE(r.out.find("torchabi audit: 2 errors"), std::string::npos) << r.out;
}

TEST(GithubFormat, SourceFindingsCarryLineAndColumnAndSeverityCommand) {
  const std::string src = source_dir() + "/fixtures/stable_ext/stable_ext.cpp";
  auto r = run_torchabi({"check", "-q", "--format", "github", "--fail-on", "note", "--target-version", "2.10", src,
                         newer_lib()});
  ASSERT_NE(r.exit_code, 2) << r.err;
  for (const auto& l : lines_of(r.out)) {
    if (!l.starts_with("::")) continue;
    EXPECT_TRUE(l.starts_with("::error ") || l.starts_with("::warning ") || l.starts_with("::notice ")) << l;
    EXPECT_NE(l.find("title="), std::string::npos) << l;
    if (l.find(".cpp,line=") != std::string::npos) {
      EXPECT_NE(l.find(",col="), std::string::npos) << l;
    }
  }
}

TEST(GithubFormat, AcceptedByEveryReportingCommand) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"schema", "--format", "github", "foo(Tensor x) -> Tensor"},
        std::vector<std::string>{"audit", "--format", "github", newer_lib()}}) {
    auto r = run_torchabi(args);
    EXPECT_NE(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err.find("unknown format"), std::string::npos) << r.err;
  }
}

TEST(SummaryView, EachHelpOnceWithCountsPerRule) {
  if (!fs::exists(newer_lib())) GTEST_SKIP() << newer_lib() << " not built";
  auto paths = two_copies();
  auto full = run_torchabi({"audit", "-q", "--target-version", "2.10", paths[0], paths[1]});
  auto r = run_torchabi({"audit", "-q", "--summary", "--target-version", "2.10", paths[0], paths[1]});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(full.exit_code, r.exit_code);
  EXPECT_NE(r.out.find("version-import-after-target (error): 2 findings in 2 subjects\n"), std::string::npos) << r.out;
  size_t helps = 0;
  for (size_t at = r.out.find("help: "); at != std::string::npos; at = r.out.find("help: ", at + 1)) ++helps;
  EXPECT_EQ(helps, 1u) << r.out;
  // The full view prints the help per finding; the summary is shorter.
  EXPECT_LT(r.out.size(), full.out.size());
}

TEST(SummaryView, GroupBySubjectCountsRulesPerSubject) {
  if (!fs::exists(newer_lib())) GTEST_SKIP() << newer_lib() << " not built";
  auto paths = two_copies();
  auto r = run_torchabi({"audit", "-q", "--group-by", "subject", "--target-version", "2.10", paths[0], paths[1]});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  for (const auto& p : paths) EXPECT_NE(r.out.find(p + ": 1 finding\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  version-import-after-target (error): 1\n"), std::string::npos) << r.out;
  auto by_rule = run_torchabi({"audit", "-q", "--group-by", "rule", "--target-version", "2.10", paths[0], paths[1]});
  EXPECT_NE(by_rule.out.find("2 findings in 2 subjects"), std::string::npos) << by_rule.out;
}

TEST(SummaryView, RejectsBadGroupAndNonTextFormats) {
  auto bad = run_torchabi({"audit", "--group-by", "color", newer_lib()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--group-by"), std::string::npos) << bad.err;
  auto json = run_torchabi({"audit", "--summary", "--format", "json", newer_lib()});
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_NE(json.err.find("--summary"), std::string::npos) << json.err;
}
