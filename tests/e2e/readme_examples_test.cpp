// The README's examples, run: every `torchabi ...` line of its ```sh blocks
// that uses fixtures/ runs with the exit code and the rule its comment
// documents; and the tour of the README's first command (scripts/demo.sh)
// says what the README says it shows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli_harness.h"

using namespace torchabi::e2e;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Example {
  std::string line;
  std::vector<std::string> args;  // after "torchabi", build/ paths made absolute
  std::string rule;               // the "# rule-id" comment; empty: a clean run
};

std::vector<Example> readme_fixture_examples() {
  std::vector<Example> out;
  std::istringstream in(slurp(source_dir() + "/README.md"));
  bool in_sh = false;
  for (std::string l; std::getline(in, l);) {
    if (l.starts_with("```")) {
      in_sh = !in_sh && l == "```sh";
      continue;
    }
    if (!in_sh || !l.starts_with("torchabi ") || l.find("fixtures/") == std::string::npos) continue;
    Example e;
    e.line = l;
    std::string cmd = l;
    if (auto hash = l.find(" #"); hash != std::string::npos) {
      cmd = l.substr(0, hash);
      static const std::regex rule(R"(#\s*([a-z0-9]+(?:-[a-z0-9]+)+))");
      std::smatch m;
      const std::string comment = l.substr(hash);
      if (std::regex_search(comment, m, rule)) e.rule = m[1];
    }
    auto words = shell_words(cmd);
    for (size_t i = 1; i < words.size(); ++i) {
      std::string w = words[i];
      if (w.starts_with("build/")) w = build_dir() + "/" + w.substr(6);
      e.args.push_back(w);
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

TEST(ReadmeExamples, FixtureExamplesRunAsDocumented) {
  const auto examples = readme_fixture_examples();
  ASSERT_GE(examples.size(), 3u) << "the README's run examples were not found";
  for (const auto& e : examples) {
    auto r = run_torchabi(e.args, source_dir());
    if (e.rule.empty()) {
      EXPECT_EQ(r.exit_code, 0) << e.line << "\n" << r.out << r.err;
    } else {
      EXPECT_EQ(r.exit_code, 1) << e.line << "\n" << r.out << r.err;
      EXPECT_NE(r.out.find("[" + e.rule + "]"), std::string::npos) << e.line << "\n" << r.out;
    }
  }
}

// The README's examples use build/ files: each must be one the README says
// how to build (a target it names), since the first command builds only a few.
TEST(ReadmeExamples, EveryBuiltFileTheExamplesUseIsExplained) {
  const std::string readme = slurp(source_dir() + "/README.md");
  const std::string demo = slurp(source_dir() + "/scripts/demo.sh");
  for (const auto& e : readme_fixture_examples())
    for (const auto& a : e.args) {
      if (!a.starts_with(build_dir() + "/fixtures/")) continue;
      EXPECT_TRUE(fs::exists(a)) << e.line << ": " << a << " is not built";
      const std::string dir = fs::path(a).parent_path().filename().string();  // "runtime", "stable_ext"
      const bool demo_builds = demo.find("fixture_" + dir) != std::string::npos;
      const bool readme_names_target = readme.find("torchabi_" + dir + "_fixtures") != std::string::npos;
      EXPECT_TRUE(demo_builds || readme_names_target)
          << e.line << ": the README's first command does not build " << a << " and the README does not say how";
    }
}

// What the tour prints for the first command, against the README's words:
// "check on a stable extension whose library needs a newer PyTorch than it
// claims, run on it (its kernel leaks a tensor handle)".
TEST(ReadmeExamples, FirstCommandsTourMatchesTheReadme) {
  const std::string demo = slurp(source_dir() + "/scripts/demo.sh");
  const std::string readme = slurp(source_dir() + "/README.md");
  ASSERT_NE(readme.find("`check` on a stable extension whose library needs a newer PyTorch than it"),
            std::string::npos);
  ASSERT_NE(readme.find("its kernel leaks a tensor handle"), std::string::npos);
  const std::string lib = build_dir() + "/fixtures/stable_ext/libstable_ext_2_12.so";
  if (!fs::exists(lib)) GTEST_SKIP() << lib << " not built";
  // The tour's check line, as the script runs it.
  ASSERT_NE(demo.find("\ntorchabi check -q --target-version 2.10 fixtures/stable_ext/stable_ext.cpp "
                      "\"$rel/fixtures/stable_ext/libstable_ext_2_12.so\"\n"),
            std::string::npos);
  auto check = run_torchabi({"check", "-q", "--target-version", "2.10", "fixtures/stable_ext/stable_ext.cpp", lib},
                            source_dir());
  EXPECT_EQ(check.exit_code, 1) << check.out << check.err;
  EXPECT_NE(check.out.find("introduced in PyTorch 2.12, after the target 2.10 [version-import-after-target]"),
            std::string::npos)
      << check.out;
  ASSERT_NE(demo.find("\ntorchabi run \"$rel/fixtures/stable_ext/libstable_ext.so\"\n"), std::string::npos);
  auto run = run_torchabi({"run", build_dir() + "/fixtures/stable_ext/libstable_ext.so"}, source_dir());
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("[runtime-handle-leak]"), std::string::npos) << run.out;
}
