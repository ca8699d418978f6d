// Progress of a lint run: one redrawn line on a terminal (erased before the
// report), nothing in a log unless -v, and with -v one line per unit.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

// Three small TUs, so that progress has something to count.
std::string three_units() {
  const std::string src = make_temp_dir();
  for (const char* name : {"a", "b", "c"})
    write_file(src, std::string("csrc/") + name + ".cpp", std::string("int ") + name + "() { return 1; }\n");
  return src;
}

std::vector<std::string> lint_args(const std::string& src) {
  return {"lint", "--cache-dir", make_temp_dir(), "--format", "json", "-j", "2", src + "/csrc/a.cpp",
          src + "/csrc/b.cpp", src + "/csrc/c.cpp", "--", "-std=c++17"};
}

TEST(LintProgress, SilentInALogWithoutVerbose) {
  auto r = run_torchabi(lint_args(three_units()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("torchabi: ["), std::string::npos) << r.err;
  r.json();  // the report itself is untouched
}

TEST(LintProgress, VerboseLogsOneLinePerUnit) {
  const std::string src = three_units();
  auto args = lint_args(src);
  args.insert(args.begin() + 1, "-v");
  auto r = run_torchabi(args, src);  // paths are shown relative to the working directory
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::regex line("torchabi: \\[(\\d)/3\\] csrc/[abc]\\.cpp \\(\\d+\\.\\ds\\)");
  std::vector<int> counts;
  for (std::sregex_iterator it(r.err.begin(), r.err.end(), line), end; it != end; ++it)
    counts.push_back(std::stoi((*it)[1].str()));
  EXPECT_EQ(counts, (std::vector<int>{1, 2, 3})) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "no terminal control in a log";
}

// util-linux's script(1) gives the command a pseudo-terminal, as a user's shell does.
TEST(LintProgress, TerminalLineIsRedrawnAndErased) {
  if (std::system("script --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) is not installed";
  const std::string src = three_units();
  const std::string dir = make_temp_dir();
  std::string cmd = torchabi_binary();
  for (const auto& a : lint_args(src)) cmd += " '" + a + "'";
  cmd += " >" + dir + "/report.json";
  const std::string typescript = dir + "/typescript";
  const std::string outer = "cd " + src + " && TERM=xterm script -qec \"" + cmd + "\" " + typescript + " >/dev/null";
  ASSERT_EQ(std::system(outer.c_str()), 0) << outer;
  const std::string tty = read_all(typescript);
  EXPECT_NE(tty.find("\r\033[Ktorchabi: [0/3]"), std::string::npos) << tty;
  EXPECT_NE(tty.find("torchabi: [3/3]"), std::string::npos) << tty;
  // The last thing drawn is the erase, so the shell prompt starts clean.
  const size_t last_erase = tty.rfind("\r\033[K");
  ASSERT_NE(last_erase, std::string::npos);
  EXPECT_EQ(tty.find("torchabi: [", last_erase), std::string::npos) << tty;
  EXPECT_TRUE(nlohmann::json::accept(read_all(dir + "/report.json")));
}

// Reading a project's build runs its build script (seconds to minutes, with
// no progress of its own): -v names the step before the units are counted;
// without -v a log shows nothing.
TEST(LintProgress, ReadingAProjectsBuildIsNamedWithVerbose) {
  const std::string project = source_dir() + "/fixtures/projects/configs/consistent";
  const std::string include = source_dir() + "/fixtures/lint/include";
  auto r = run_torchabi({"check", "-v", "--no-cache", "--torch-include", include, "."}, project);
  ASSERT_NE(r.exit_code, 2) << r.err;
  const size_t phase = r.err.find("torchabi: reading the build of . (its build script runs, sandboxed)\n");
  ASSERT_NE(phase, std::string::npos) << r.err;
  EXPECT_LT(phase, r.err.find("torchabi: [1/")) << r.err;
  auto quiet = run_torchabi({"check", "--no-cache", "--torch-include", include, "."}, project);
  EXPECT_EQ(quiet.err.find("reading the build"), std::string::npos) << quiet.err;
}

}  // namespace
}  // namespace torchabi::e2e::lint
