// `torchabi check`: lint and audit together on a source tree with a build
// directory, on a library alone, and on paths that hold nothing to check.
#include <gtest/gtest.h>

#include <set>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

std::string built_stable_lib() { return build_dir() + "/fixtures/stable_ext/libstable_ext.so"; }

// A source tree whose build/ holds a compile database for the stable fixture.
std::string source_tree() {
  const std::string tree = make_temp_dir();
  const std::string ops = fixture("stable_ext/csrc/ops.cpp");
  std::filesystem::create_directories(tree + "/build");
  std::ofstream(tree + "/build/compile_commands.json")
      << "[{\"directory\": \"" << tree << "/build\", \"command\": \"c++ -std=c++17 -I" << stand_ins()
      << " -DTORCH_TARGET_VERSION=0x020a000000000000 -c " << ops << "\", \"file\": \"" << ops << "\"}]";
  return tree;
}

// ... and the library built from it.
std::string source_tree_with_build() {
  const std::string tree = source_tree();
  std::filesystem::copy_file(built_stable_lib(), tree + "/build/libstable_ext.so");
  return tree;
}

// The results cache answers for the torchabi that wrote it: another build
// of torchabi (a copy of the executable stands for one) parses again, since
// its checks may differ while its version string does not.
TEST(Check, AnotherTorchabiDoesNotReadThisOnesCachedResults) {
  const std::string tree = source_tree(), cache = make_temp_dir();
  const std::vector<std::string> args = {"lint", "-v", "-p", tree + "/build", "--cache-dir", cache};
  ASSERT_NE(run_torchabi(args).exit_code, 2);
  auto again = run_torchabi(args);
  EXPECT_NE(again.err.find("1 translation units analysed, 1 of them from the cache"), std::string::npos) << again.err;
  const std::string copy = make_temp_dir() + "/torchabi";
  std::filesystem::copy_file(torchabi_binary(), copy);
  std::filesystem::permissions(copy, std::filesystem::perms::owner_all);
  // The wrapper is given torchabi's path first: the copy runs in its place.
  auto other = run_torchabi_wrapped({"sh", "-c", "shift; exec " + copy + " \"$@\"", "sh"}, args);
  EXPECT_NE(other.err.find("1 translation units analysed, 0 of them from the cache"), std::string::npos) << other.err;
}

TEST(Check, SourceTreeIsLintedAndItsLibraryAudited) {
  if (!std::filesystem::exists(built_stable_lib())) GTEST_SKIP() << "fixture library not built";
  const std::string tree = source_tree_with_build();
  auto r = run_torchabi({"check", tree, "--format", "json", "--cache-dir", make_temp_dir()});
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["command"], "check");
  std::set<std::string> kinds;
  for (const auto& s : j["subjects"]) kinds.insert(s["kind"].get<std::string>());
  EXPECT_TRUE(kinds.count("translation-unit")) << j["subjects"].dump();
  EXPECT_TRUE(kinds.count("library")) << j["subjects"].dump();
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") {
      EXPECT_EQ(s["verdict"], "STABLE");
    }
}

// A backup copy (`x.so.bak`) lying in the tree is not the build: only a
// library's own names (x.so, libx.so.1.2) are audited.
TEST(Check, OnlyLibraryNamesAreAuditedNotBackups) {
  if (!std::filesystem::exists(built_stable_lib())) GTEST_SKIP() << "fixture library not built";
  const std::string tree = source_tree_with_build();
  std::filesystem::copy_file(built_stable_lib(), tree + "/build/libold.so.bak");
  std::filesystem::copy_file(built_stable_lib(), tree + "/build/libstable_ext.so.1.2");
  auto r = run_torchabi({"check", tree, "--format", "json", "--cache-dir", make_temp_dir()});
  ASSERT_NE(r.exit_code, 2) << r.err;
  std::set<std::string> libraries;
  const auto j = r.json();
  for (const auto& s : j["subjects"])
    if (s["kind"] == "library") libraries.insert(std::filesystem::path(s["path"].get<std::string>()).filename().string());
  EXPECT_EQ(libraries, (std::set<std::string>{"libstable_ext.so", "libstable_ext.so.1.2"})) << r.out;
}

TEST(Check, LibraryAloneIsAudited) {
  if (!std::filesystem::exists(built_stable_lib())) GTEST_SKIP() << "fixture library not built";
  auto r = run_torchabi({"check", built_stable_lib(), "--format", "json"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["subjects"].size(), 1u);
  EXPECT_EQ(j["subjects"][0]["kind"], "library");
}

TEST(Check, SourceFileIsLinted) {
  auto r = run_torchabi({"check", fixture("source-shim-declaration-mismatch/fires.cpp"), "--format", "json", "--no-cache"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(findings_of(r.json(), "source-shim-declaration-mismatch").size(), 2u);
}

// The source tree plus a ".so" that is not an ELF file.
std::string source_tree_with_broken_library() {
  const std::string tree = source_tree();
  std::ofstream(tree + "/build/libbroken.so") << "not an ELF file";
  return tree;
}

TEST(Check, AnUnreadableLibraryDoesNotHideTheLintResults) {
  const std::string tree = source_tree_with_broken_library();
  auto r = run_torchabi({"check", tree, "--format", "json", "--cache-dir", make_temp_dir()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["subjects"].size(), 1u) << j.dump();
  EXPECT_EQ(j["subjects"][0]["kind"], "translation-unit");
  EXPECT_EQ(j["subjects"][0]["verdict"], "STABLE");
  // The library is named in a note and in the report's errors, not as an error.
  EXPECT_NE(r.err.find("note: not analysed: " + tree + "/build/libbroken.so"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("error:"), std::string::npos) << r.err;
  ASSERT_EQ(j["errors"].size(), 1u);
  EXPECT_EQ(j["errors"][0]["input"], tree + "/build/libbroken.so");
}

TEST(Check, OnlyAnUnreadableLibraryIsExit2) {
  const std::string tree = source_tree_with_broken_library();
  auto r = run_torchabi({"check", tree + "/build/libbroken.so"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: " + tree + "/build/libbroken.so"), std::string::npos) << r.err;
}

TEST(Check, ABrokenCompileDatabaseDoesNotHideTheAudit) {
  if (!std::filesystem::exists(built_stable_lib())) GTEST_SKIP() << "fixture library not built";
  const std::string tree = make_temp_dir();
  std::filesystem::create_directories(tree + "/build");
  std::ofstream(tree + "/build/compile_commands.json") << "[{not json";
  std::filesystem::copy_file(built_stable_lib(), tree + "/build/libstable_ext.so");
  auto r = run_torchabi({"check", tree, "--format", "json", "--cache-dir", make_temp_dir()});
  EXPECT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["subjects"].size(), 1u) << j.dump();
  EXPECT_EQ(j["subjects"][0]["kind"], "library");
  EXPECT_NE(r.err.find("note: not analysed: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("compile_commands.json"), std::string::npos) << r.err;
}

TEST(Check, NothingToCheckIsExit2) {
  const std::string empty = make_temp_dir();
  auto r = run_torchabi({"check", empty});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nothing to check"), std::string::npos) << r.err;
  auto missing = run_torchabi({"check", empty + "/nope"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("not found"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace torchabi::e2e::lint
