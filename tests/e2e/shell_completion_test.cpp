// `torchabi completion bash|zsh|fish`: each script parses in its shell and
// names every subcommand and every option that --help lists.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli_harness.h"

using namespace torchabi::e2e;

namespace {

bool have(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

const std::vector<std::vector<std::string>> kCommands = {
    {"audit"}, {"check"}, {"completion"}, {"explain"}, {"lint"},   {"migrate"},
    {"rules"}, {"rules", "list"}, {"rules", "import"}, {"run"}, {"scan"}, {"schema"}};

// Option names from `torchabi CMD --help`: "  -o,--output TEXT ..." lines.
std::vector<std::string> options_of(const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  args.push_back("--help");
  auto r = run_torchabi(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> names;
  std::istringstream in(r.out);
  static const std::regex line(R"(^\s+(-[-\w]+(?:\{\w+\})?(?:,-[-\w]+(?:\{\w+\})?)*)\b.*)");
  static const std::regex name(R"(-[-\w]+)");
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_match(l, m, line)) continue;
    const std::string spec = m[1];
    for (auto it = std::sregex_iterator(spec.begin(), spec.end(), name); it != std::sregex_iterator(); ++it)
      names.push_back(it->str());
  }
  return names;
}

std::string script(const std::string& shell) {
  auto r = run_torchabi({"completion", shell});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

void expect_complete(const std::string& shell, const std::string& text) {
  for (const auto& c : kCommands) {
    EXPECT_NE(text.find(c.back()), std::string::npos) << shell << " lacks command " << c.back();
    const auto opts = options_of(c);
    EXPECT_FALSE(opts.empty()) << c.back();
    for (const auto& o : opts) {
      // fish spells options as "-l output" / "-s o".
      const std::string fish = o.starts_with("--") ? "-l " + o.substr(2) : "-s " + o.substr(1);
      const bool found = shell == "fish" ? text.find(fish + " ") != std::string::npos ||
                                               text.find(fish + "\n") != std::string::npos
                                         : text.find(o) != std::string::npos;
      EXPECT_TRUE(found) << shell << " lacks " << c.back() << " " << o;
    }
  }
}

// The script checked by the shell itself, without running it.
void expect_parses(const std::string& shell, const std::string& check_flag, const std::string& text) {
  const std::string path = make_temp_dir() + "/torchabi." + shell;
  std::ofstream(path) << text;
  const std::string cmd = shell + " " + check_flag + " " + path + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace

TEST(ShellCompletion, BashScriptParsesAndIsComplete) {
  if (!have("bash")) GTEST_SKIP() << "bash is not installed";
  const std::string text = script("bash");
  expect_parses("bash", "-n", text);
  expect_complete("bash", text);
  EXPECT_NE(text.find("complete -o filenames -F _torchabi torchabi"), std::string::npos);
}

TEST(ShellCompletion, BashCompletesSubcommandsOptionsAndValues) {
  if (!have("bash")) GTEST_SKIP() << "bash is not installed";
  const std::string path = make_temp_dir() + "/torchabi.bash";
  std::ofstream(path) << script("bash");
  // Runs the completion function as bash would for `torchabi WORDS... CUR`.
  auto complete = [&](const std::string& words) {
    const std::string out = make_temp_dir() + "/out";
    const std::string cmd = "bash -c 'source " + path + "; COMP_WORDS=(" + words +
                            "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _torchabi; printf \"%s\\n\" \"${COMPREPLY[@]}\"' > " +
                            out + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_NE(complete("torchabi mig").find("migrate\n"), std::string::npos);
  EXPECT_NE(complete("torchabi audit --fo").find("--format\n"), std::string::npos);
  EXPECT_EQ(complete("torchabi audit --format g"), "github\n");
  EXPECT_EQ(complete("torchabi migrate --format h"), "html\n");
  EXPECT_NE(complete("torchabi rules l").find("list\n"), std::string::npos);
}

TEST(ShellCompletion, ZshScriptParsesAndIsComplete) {
  const std::string text = script("zsh");
  expect_complete("zsh", text);
  if (!have("zsh")) GTEST_SKIP() << "zsh is not installed: the script's syntax is not checked";
  expect_parses("zsh", "-n", text);
}

TEST(ShellCompletion, FishScriptParsesAndIsComplete) {
  const std::string text = script("fish");
  expect_complete("fish", text);
  if (!have("fish")) GTEST_SKIP() << "fish is not installed: the script's syntax is not checked";
  expect_parses("fish", "--no-execute", text);
}

TEST(ShellCompletion, UnknownShellIsAnInputError) {
  auto r = run_torchabi({"completion", "tcsh"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("tcsh"), std::string::npos) << r.err;
}
