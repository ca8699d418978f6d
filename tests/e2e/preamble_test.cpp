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
#include <optional>
#include <set>
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

// The -v lines about shared preambles built.
std::string notes;  // the last run's -v lines about preambles, for failure messages

std::vector<std::string> built_lines(const std::string& err) {
  notes.clear();
  std::vector<std::string> out;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.find("shared preamble <") != std::string::npos) {
      notes += line + "\n";
      if (line.find(" built for ") != std::string::npos) out.push_back(line);
    }
  return out;
}

// Runs `args` (a command and its options; the cache directory is added) with
// and without shared preambles and compares the reports. Returns the -v
// lines of the PCHs built.
std::vector<std::string> same_with_and_without(std::vector<std::string> args, const std::vector<std::string>& rest,
                             const std::string& cwd = "", bool verbose = true, bool always = true) {
  std::optional<AlwaysPreamble> every_tu;
  if (always) every_tu.emplace();
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
    return {};
  }
  const json a = comparable(with.json()), b = comparable(without.json());
  EXPECT_EQ(a, b) << "with the preamble:\n" << a.dump(1) << "\nwithout:\n" << b.dump(1) << "\n" << with.err;
  // A PCH that was built but that a TU could not use would hide nothing here,
  // but would cost the speed: it must not happen.
  EXPECT_EQ(count_lines(with.err, "shared preamble not used"), 0u) << with.err;
  EXPECT_EQ(count_lines(without.err, "shared preamble"), 0u) << without.err;
  return built_lines(with.err);
}

// fixtures/lint: one run per set of flags that two or more fixture files share
// (with one file, both runs would parse the same way).
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
  std::string all_notes;
  for (const auto& [flags, files] : by_flags) {
    if (files.size() < 2) continue;
    std::vector<std::string> rest = files;
    rest.insert(rest.end(), {"--", "-std=c++17", "-I", lint::stand_ins()});
    rest.insert(rest.end(), flags.begin(), flags.end());
    built += same_with_and_without({"lint"}, rest).size();
    all_notes += notes;
  }
  // Every group that shares leading headers gets its PCH, except where the
  // fixture includes a header that does not exist (the finding it is for).
  EXPECT_GE(built, 4u) << all_notes;
  std::istringstream in(all_notes);
  for (std::string line; std::getline(in, line);) {
    if (line.find(" not used: ") == std::string::npos) continue;
    EXPECT_NE(line.find("file not found"), std::string::npos) << line;
  }
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

// The real 2.14 stable headers: fixtures/real_stable's files at the headers'
// release, each starting with every torch header any of them includes (so
// that they share one PCH, as a repository's files would), then their own.
TEST(Preamble, RealStableHeadersSameFindings) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string root = lint::fixtures() + "/real_stable";
  const std::string dir = make_temp_dir();
  struct Copy {
    std::string path, head, own, body;
  };
  std::vector<Copy> copies;
  std::set<std::string> torch_headers;
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
      Copy c;
      c.path = dir + "/" + std::string(sub) + "_" + f.path().filename().string();
      for (size_t i = first; i < last; ++i) {
        // Stable headers only: <torch/library.h> (unstable_use.cpp) is an #error under TORCH_TARGET_VERSION.
        if (lines[i].starts_with("#include <torch/csrc/stable/") || lines[i].starts_with("#include <torch/headeronly/") ||
            lines[i].starts_with("#include <torch/csrc/inductor/"))
          torch_headers.insert(lines[i]);
        else if (!lines[i].empty()) c.own += lines[i] + "\n";
      }
      for (size_t i = 0; i < first; ++i) c.head += lines[i] + "\n";
      for (size_t i = last; i < lines.size(); ++i) c.body += lines[i] + "\n";
      copies.push_back(std::move(c));
    }
  ASSERT_GT(copies.size(), 15u);
  std::vector<std::string> files;
  for (const auto& c : copies) {
    std::ofstream out(c.path);
    out << c.head;
    for (const auto& h : torch_headers) out << h << "\n";
    // The file's own includes after a declaration: they are not part of the shared prefix.
    out << "namespace preamble_test {}\n" << c.own << "\n" << c.body;
    files.push_back(c.path);
  }
  std::vector<std::string> rest = files;
  rest.insert(rest.end(), {"--", "-std=c++17", "-I" + root + "/include", "-I" + test::real_torch_include(),
                           "-DRS_LIB_NAME=rstable", "-DTORCH_TARGET_VERSION=0x020e000000000000"});
  // One PCH for the files that start with the includes (those that #define
  // TORCH_TARGET_VERSION first do not share it).
  const auto built = same_with_and_without({"lint"}, rest, dir, true, /*always=*/false);
  ASSERT_EQ(built.size(), 1u) << ::testing::PrintToString(built) << notes;
  // Every file but those with a directive before their includes (#ifndef TORCH_TARGET_VERSION).
  size_t sharing = 0;
  for (const auto& c : copies) sharing += c.head.find("\n#") == std::string::npos && !c.head.starts_with("#");
  EXPECT_GT(sharing, 15u);
  EXPECT_NE(built[0].find("built for " + std::to_string(sharing) + " translation units"), std::string::npos)
      << built[0];
}

}  // namespace
}  // namespace torchabi::e2e
