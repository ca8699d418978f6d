// The results cache: hit when the TU's inputs are unchanged (even if only
// touched), miss when a header's content changes or a missing header appears
// anywhere clang would have found it: a user -I or -isystem directory, a
// built-in system directory, or a directory searched before the one a header
// was found in. Nothing is installed: the headers appear in temp directories.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "analyzers/source/front_end.h"
#include "analyzers/source/result_cache.h"
#include "test_helpers.h"

namespace torchabi::source {
namespace {

namespace fs = std::filesystem;

struct CacheFixture : ::testing::Test {
  fs::path dir = fs::path(::testing::TempDir()) / ("cache_" + std::to_string(::getpid()) + "_" +
                                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir / "src");
    std::ofstream(dir / "src/a.h") << "int a();\n";
  }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(CacheFixture, UnchangedInputsHit) {
  ResultCache cache((dir / "cache").string());
  cache.store("k1", {(dir / "src/a.h").string()}, {(dir / "src/b.h").string()}, "payload-1");
  EXPECT_EQ(cache.load("k1"), std::optional<std::string>("payload-1"));
  EXPECT_EQ(cache.load("other"), std::nullopt);
}

TEST_F(CacheFixture, TouchedButIdenticalStillHits) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {}, "p");
  fs::last_write_time(dir / "src/a.h", fs::last_write_time(dir / "src/a.h") + std::chrono::seconds(5));
  EXPECT_EQ(cache.load("k"), std::optional<std::string>("p"));
}

TEST_F(CacheFixture, ChangedContentMisses) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {}, "p");
  std::ofstream(dir / "src/a.h") << "int b();\n";  // same size, different content
  fs::last_write_time(dir / "src/a.h", fs::last_write_time(dir / "src/a.h") + std::chrono::seconds(5));
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

TEST_F(CacheFixture, AppearingHeaderMisses) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {(dir / "src/missing.h").string()}, "p");
  ASSERT_TRUE(cache.load("k"));
  std::ofstream(dir / "src/missing.h") << "\n";
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

TEST_F(CacheFixture, CorruptEntryIsAMiss) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {}, {}, "p");
  std::ofstream(dir / "cache/k.json") << "{not json";
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

TEST_F(CacheFixture, NewFileBesideAnAbsentPathStillHits) {
  // The absent path is watched through its nearest existing directory; an
  // unrelated file created there costs a re-check, not the cached result.
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {(dir / "src/sub/missing.h").string()}, "p");
  std::ofstream(dir / "src/unrelated.h") << "\n";
  EXPECT_EQ(cache.load("k"), std::optional<std::string>("p"));
  fs::create_directories(dir / "src/sub");
  EXPECT_EQ(cache.load("k"), std::optional<std::string>("p"));
  std::ofstream(dir / "src/sub/missing.h") << "\n";
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

TEST_F(CacheFixture, AnAbsentPathThatExistsWhenStoredIsNotCached) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {(dir / "src/a.h").string()}, "p");
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

// Lints one TU through run_lint with a cache, as `torchabi lint` does.
struct LintCacheFixture : CacheFixture {
  std::string cpp() const { return (dir / "src/ext.cpp").string(); }
  LintRun lint(const std::vector<std::string>& flags) {
    auto args = inputs::translate_flags(cpp(), flags, (dir / "src").string());
    LintOptions o;
    o.jobs = 1;
    o.cache_dir = (dir / "cache").string();
    o.project_roots = {dir.string()};
    return run_lint({args}, test::env(), o);
  }
  static size_t count(const LintRun& r, const std::string& rule) {
    return size_t(std::count_if(r.report.findings.begin(), r.report.findings.end(),
                                [&](const auto& f) { return f.rule == rule; }));
  }
};

// A header that was missing appears in a directory the TU searches: the
// cached source-parse-incomplete must not be returned again.
void expect_appearing_header_invalidates(LintCacheFixture& t, const std::string& flag) {
  const fs::path where = t.dir / "deps";
  fs::create_directories(where);
  std::ofstream(t.cpp()) << "#include <extdep/api.h>\nint use() { return extdep_value(); }\n";
  const std::vector<std::string> flags = {"-std=c++17", flag, where.string()};
  LintRun first = t.lint(flags);
  ASSERT_EQ(first.analysed, 1u);
  EXPECT_EQ(first.from_cache, 0u);
  EXPECT_EQ(LintCacheFixture::count(first, "source-parse-incomplete"), 1u);
  LintRun again = t.lint(flags);
  EXPECT_EQ(again.from_cache, 1u);
  EXPECT_EQ(LintCacheFixture::count(again, "source-parse-incomplete"), 1u);

  fs::create_directories(where / "extdep");
  std::ofstream(where / "extdep/api.h") << "inline int extdep_value() { return 1; }\n";
  LintRun fresh = t.lint(flags);
  EXPECT_EQ(fresh.from_cache, 0u) << flag;
  EXPECT_EQ(LintCacheFixture::count(fresh, "source-parse-incomplete"), 0u) << flag;
  EXPECT_EQ(t.lint(flags).from_cache, 1u);
}

TEST_F(LintCacheFixture, MissingHeaderAppearingInAUserIncludeDirInvalidates) {
  expect_appearing_header_invalidates(*this, "-I");
}

TEST_F(LintCacheFixture, MissingHeaderAppearingInASystemIncludeDirInvalidates) {
  expect_appearing_header_invalidates(*this, "-isystem");
}

TEST_F(LintCacheFixture, HeaderAppearingInAnEarlierSearchDirInvalidates) {
  fs::create_directories(dir / "early");
  fs::create_directories(dir / "late/cfg");
  std::ofstream(dir / "late/cfg/config.h") << "#define EXT_CONFIG 1\n";
  std::ofstream(cpp()) << "#include <cfg/config.h>\nint v = EXT_CONFIG;\n";
  const std::vector<std::string> flags = {"-std=c++17", "-I", (dir / "early").string(), "-isystem",
                                          (dir / "late").string()};
  LintRun first = lint(flags);
  ASSERT_EQ(first.analysed, 1u);
  EXPECT_TRUE(first.report.findings.empty());
  EXPECT_EQ(lint(flags).from_cache, 1u);
  // The same name, in a directory searched before: clang now reads this one.
  fs::create_directories(dir / "early/cfg");
  std::ofstream(dir / "early/cfg/config.h") << "#include <torch/extension.h>\n#define EXT_CONFIG 2\n";
  LintRun fresh = lint(flags);
  EXPECT_EQ(fresh.from_cache, 0u);
  EXPECT_EQ(count(fresh, "source-unstable-include"), 1u);
}

TEST_F(LintCacheFixture, QuotedIncludeAppearingBesideTheIncluderInvalidates) {
  fs::create_directories(dir / "inc");
  std::ofstream(dir / "inc/local.h") << "int local = 1;\n";
  std::ofstream(cpp()) << "#include \"local.h\"\n";
  const std::vector<std::string> flags = {"-std=c++17", "-I", (dir / "inc").string()};
  ASSERT_EQ(lint(flags).analysed, 1u);
  EXPECT_EQ(lint(flags).from_cache, 1u);
  std::ofstream(dir / "src/local.h") << "#include <torch/extension.h>\n";
  LintRun fresh = lint(flags);
  EXPECT_EQ(fresh.from_cache, 0u);
  EXPECT_EQ(count(fresh, "source-unstable-include"), 1u);
}

TEST_F(LintCacheFixture, HasIncludeTestOfAnAppearingHeaderInvalidates) {
  fs::create_directories(dir / "deps");
  std::ofstream(cpp()) << "#if __has_include(<optional_dep/feature.h>)\n#include <torch/extension.h>\n#endif\n"
                          "#include <stddef.h>\n";
  const std::vector<std::string> flags = {"-std=c++17", "-I", (dir / "deps").string()};
  LintRun first = lint(flags);
  ASSERT_EQ(first.analysed, 1u);
  EXPECT_EQ(count(first, "source-unstable-include"), 0u);  // the branch is not compiled
  EXPECT_EQ(lint(flags).from_cache, 1u);
  fs::create_directories(dir / "deps/optional_dep");
  std::ofstream(dir / "deps/optional_dep/feature.h") << "\n";
  LintRun fresh = lint(flags);
  EXPECT_EQ(fresh.from_cache, 0u);
  EXPECT_EQ(count(fresh, "source-unstable-include"), 1u);
}

TEST_F(CacheFixture, MissingHeaderIsLookedForInClangsBuiltInSystemDirs) {
  // pybind11-dev installing /usr/include/pybind11/ must invalidate a TU that
  // did not find <pybind11/pybind11.h>: the built-in directories, which no
  // flag names, are part of the lookups. (Checked on the recorded paths:
  // a test cannot write to /usr/include.)
  std::ofstream(dir / "src/ext.cpp") << "#include <not_installed_dep/api.h>\n#include <stddef.h>\n";
  ParseRequest req;
  req.args = inputs::translate_flags((dir / "src/ext.cpp").string(), {"-std=c++17"}, (dir / "src").string());
  req.classifier = &test::env().classifier;
  auto outcome = parse_translation_unit(std::move(req));
  ASSERT_TRUE(outcome.tu) << outcome.error;
  const auto& search = outcome.tu->header_search();
  ASSERT_FALSE(search.angled.empty());
  // The directory that holds <stddef.h> for this parse is one of them.
  std::string stddef_dir;
  for (const auto& d : outcome.tu->includes())
    if (d.spelled == "stddef.h") stddef_dir = fs::path(d.resolved).parent_path().string();
  ASSERT_FALSE(stddef_dir.empty());
  EXPECT_NE(std::find(search.angled.begin(), search.angled.end(), stddef_dir), search.angled.end()) << stddef_dir;
  const auto& missing = outcome.tu->files_missing();
  for (const auto& d : search.angled)
    EXPECT_NE(std::find(missing.begin(), missing.end(), d + "/not_installed_dep/api.h"), missing.end()) << d;
}

}  // namespace
}  // namespace torchabi::source
