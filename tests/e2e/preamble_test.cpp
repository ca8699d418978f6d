// Shared preambles (src/analyzers/source/shared_preamble.h) change how fast
// lint parses, never what it finds: the fixtures are linted, checked and
// migrated with and without them (--no-preamble) and the JSON reports must be
// identical. TORCHABI_PREAMBLE_ALWAYS=1 gives every eligible TU a PCH, also
// one that shares its leading #include lines with no other TU, so that every
// fixture goes through the PCH path; -v says which PCHs were built, and
// that no TU had to fall back to a plain parse. The real 2.14 stable headers
// (scripts/fetch-torch.sh) are covered with fixtures/real_stable, its
// torch includes moved first (its files start with their own headers, which
// are never precompiled).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lint_fixtures.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Sets TORCHABI_PREAMBLE_ALWAYS for the commands run while it lives.
struct AlwaysPreamble {
  AlwaysPreamble() { ::setenv("TORCHABI_PREAMBLE_ALWAYS", "1", 1); }
  ~AlwaysPreamble() { ::unsetenv("TORCHABI_PREAMBLE_ALWAYS"); }
};

json comparable(json j) {
  j.erase("tool");
  return j;
}

size_t count_lines(const std::string& text, const std::string& what) {
  size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(what) != std::string::npos) ++n;
  return n;
}

// Runs `args` (a command and its options; the cache directory is added) with
// and without shared preambles and compares the reports. Returns how many
// PCHs were built.
size_t same_with_and_without(std::vector<std::string> args, const std::vector<std::string>& rest,
                             const std::string& cwd = "", bool verbose = true) {
  AlwaysPreamble always;
  auto run = [&](bool preamble) {
    std::vector<std::string> full = args;
    full.insert(full.end(), {"--format", "json", "--cache-dir", make_temp_dir()});
    if (verbose) full.push_back("-v");
    if (!preamble) full.push_back("--no-preamble");
    full.insert(full.end(), rest.begin(), rest.end());
    return run_torchabi(full, cwd);
  };
  RunResult with = run(true);
  RunResult without = run(false);
  EXPECT_EQ(with.exit_code, without.exit_code) << with.err << "\n----\n" << without.err;
  if (with.out.empty() || without.out.empty()) {
    ADD_FAILURE() << "no report\n" << with.err << without.err;
    return 0;
  }
  const json a = comparable(with.json()), b = comparable(without.json());
  EXPECT_EQ(a, b) << "with the preamble:\n" << a.dump(1) << "\nwithout:\n" << b.dump(1) << "\n" << with.err;
  // A PCH that was built but that a TU could not use would hide nothing here,
  // but would cost the speed: it must not happen.
  EXPECT_EQ(count_lines(with.err, "shared preamble not used"), 0u) << with.err;
  EXPECT_EQ(count_lines(without.err, "shared preamble"), 0u) << without.err;
  return count_lines(with.err, "shared preamble <");
}

// fixtures/lint: every fixture file, one run per set of flags.
TEST(Preamble, LintFixturesSameFindings) {
  std::map<std::vector<std::string>, std::vector<std::string>> by_flags;
  for (const auto& dir : fs::directory_iterator(lint::fixtures() + "/lint")) {
    const std::string name = dir.path().filename().string();
    if (!dir.is_directory() || name == "include" || name == "legacy_ext" || name == "cuda") continue;
    for (const auto& f : fs::recursive_directory_iterator(dir.path())) {
      if (f.path().extension() != ".cpp" || f.path().string().find("/include/") != std::string::npos) continue;
      by_flags[lint::fixture_flags(f.path().string())].push_back(f.path().string());
    }
  }
  ASSERT_GT(by_flags.size(), 3u);
  size_t built = 0;
  for (const auto& [flags, files] : by_flags) {
    std::vector<std::string> rest = files;
    rest.insert(rest.end(), {"--", "-std=c++17", "-I", lint::stand_ins()});
    rest.insert(rest.end(), flags.begin(), flags.end());
    built += same_with_and_without({"lint"}, rest);
  }
  EXPECT_GT(built, 5u);
}

// Project mode and migrate go through the same runs.
TEST(Preamble, ProjectAndMigrateFixturesSameFindings) {
  for (const char* project : {"cmake_ext", "setup_run_writes"}) {
    SCOPED_TRACE(project);
    same_with_and_without({"check", "--no-run-build", "--torch-include", lint::stand_ins()},
                          {lint::fixtures() + "/projects/" + project});
  }
  // The migrate fixtures that need no torch/extension.h (seconds of clang each).
  const std::string m = lint::fixtures() + "/migrate";
  std::vector<std::string> rest;
  for (const auto& f : fs::recursive_directory_iterator(m)) {
    if (f.path().extension() != ".cpp" || f.path().string().find("/expected/") != std::string::npos) continue;
    const std::string text = lint::read_all(f.path().string());
    bool heavy = false;
    for (const char* h : {"<torch/extension.h>", "<ATen/", "<torch/library.h>", "<torch/custom_class.h>", "<torch/all.h>"})
      heavy = heavy || text.find(h) != std::string::npos;
    if (!heavy) rest.push_back(f.path().string());
  }
  ASSERT_GT(rest.size(), 3u);
  rest.insert(rest.end(), {"--", "-std=c++17", "-I" + m + "/stand_in_include", "-I" + lint::stand_ins()});
  same_with_and_without({"migrate"}, rest, "", /*verbose=*/false);
}

// The real 2.14 stable headers: fixtures/real_stable's files, their torch
// includes first, at the headers' release.
TEST(Preamble, RealStableHeadersSameFindings) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string root = lint::fixtures() + "/real_stable";
  const std::string dir = make_temp_dir();
  std::vector<std::string> files;
  for (const char* sub : {"csrc", "defects"})
    for (const auto& f : fs::directory_iterator(root + "/" + sub)) {
      if (f.path().extension() != ".cpp") continue;
      std::string text = lint::read_all(f.path().string());
      if (text.find("torchabi-fixture: flags") != std::string::npos) continue;  // -mavx2: another group
      // The first block of #include lines (and blank lines), torch's first.
      std::vector<std::string> lines;
      std::istringstream in(text);
      for (std::string line; std::getline(in, line);) lines.push_back(line);
      size_t first = 0;
      while (first < lines.size() && !lines[first].starts_with("#include")) ++first;
      size_t last = first;
      while (last < lines.size() && (lines[last].starts_with("#include") || lines[last].empty())) ++last;
      std::vector<std::string> torch, other;
      for (size_t i = first; i < last; ++i)
        if (!lines[i].empty()) (lines[i].starts_with("#include <torch/") ? torch : other).push_back(lines[i]);
      std::string out;
      for (size_t i = 0; i < first; ++i) out += lines[i] + "\n";
      for (const auto& l : torch) out += l + "\n";
      for (const auto& l : other) out += l + "\n";
      out += "\n";
      for (size_t i = last; i < lines.size(); ++i) out += lines[i] + "\n";
      const std::string copy = dir + "/" + std::string(sub) + "_" + f.path().filename().string();
      std::ofstream(copy) << out;
      files.push_back(copy);
    }
  ASSERT_GT(files.size(), 15u);
  std::vector<std::string> rest = files;
  rest.insert(rest.end(), {"--", "-std=c++17", "-I" + root + "/include", "-I" + test::real_torch_include(),
                           "-DRS_LIB_NAME=rstable", "-DTORCH_TARGET_VERSION=0x020e000000000000"});
  const size_t built = same_with_and_without({"lint"}, rest, dir);
  EXPECT_GT(built, 5u);
}

}  // namespace
}  // namespace torchabi::e2e
