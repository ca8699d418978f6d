// `torchabi --version` names what a bug report needs: the tool, the rules
// data (with a digest that follows every byte of it) and libclang.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "cli_harness.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string digest_of(const std::string& rules_line) {
  std::smatch m;
  return std::regex_search(rules_line, m, std::regex("digest ([0-9a-f]{16})$")) ? m[1].str() : "";
}

// The release the generated C shim table says it was built from, read the
// way a person would: its header comment.
std::string release_named_by_catalog() {
  std::ifstream in(source_dir() + "/rules/api/stable_c_functions.tsv");
  std::smatch m;
  for (std::string l; std::getline(in, l) && l.starts_with("#");)
    if (std::regex_search(l, m, std::regex("PyTorch (\\d+\\.\\d+\\.\\d+)"))) return m[1].str();
  return "";
}

TEST(Version, NamesToolRulesAndLibclang) {
  auto r = run_torchabi({"--version"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto l = lines(r.out);
  ASSERT_EQ(l.size(), 3u) << r.out;
  EXPECT_TRUE(std::regex_match(l[0], std::regex("torchabi \\d+\\.\\d+\\.\\d+"))) << l[0];
  const std::string release = release_named_by_catalog();
  ASSERT_FALSE(release.empty());
  EXPECT_TRUE(std::regex_match(
      l[1], std::regex("rules: embedded rules, derived from PyTorch " + std::regex_replace(release, std::regex("\\."), "\\.") +
                       ", \\d+ files, digest [0-9a-f]{16}")))
      << l[1];
  EXPECT_TRUE(std::regex_search(l[2], std::regex("^libclang: .*clang version \\d+\\.\\d+.*, /.*libclang"))) << l[2];
}

TEST(Version, DigestFollowsTheRulesContent) {
  const std::string dir = make_temp_dir() + "/rules";
  fs::copy(source_dir() + "/rules", dir, fs::copy_options::recursive);
  auto same = run_torchabi({"--rules-dir", dir, "--version"});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  {
    std::ofstream(dir + "/api/releases.yaml", std::ios::app) << "# edited\n";
  }
  auto edited = run_torchabi({"--rules-dir", dir, "--version"});
  ASSERT_EQ(edited.exit_code, 0) << edited.err;
  const std::string a = digest_of(lines(same.out).at(1)), b = digest_of(lines(edited.out).at(1));
  ASSERT_FALSE(a.empty()) << same.out;
  ASSERT_FALSE(b.empty()) << edited.out;
  EXPECT_NE(a, b);
}

TEST(Version, NamesLibclangWithoutLoadingIt) {
  // The dynamic loader's own account (LD_DEBUG=files) of what the process
  // mapped: neither libclang nor libLLVM for --version, nor for an audit.
  setenv("LD_DEBUG", "files", 1);
  auto version = run_torchabi({"--version"});
  auto audit = run_torchabi({"audit", build_dir() + "/fixtures/stable_ext/libstable_ext.so"});
  unsetenv("LD_DEBUG");
  ASSERT_EQ(version.exit_code, 0) << version.err;
  EXPECT_NE(version.out.find("libclang: clang version "), std::string::npos) << version.out;
  for (const auto* r : {&version, &audit}) {
    EXPECT_EQ(r->err.find("file=libclang"), std::string::npos) << r->err;
    EXPECT_EQ(r->err.find("file=libLLVM"), std::string::npos) << r->err;
    // Nor libzip (and libcrypto behind it): an audit of a .so opens no zip.
    EXPECT_EQ(r->err.find("file=libzip"), std::string::npos) << r->err;
  }
}

TEST(Version, WithoutLibclangStillAnswers) {
  // audit and run need no libclang: --version says it is missing and succeeds.
  setenv("TORCHABI_LIBCLANG", "/nonexistent/libclang.so", 1);
  auto r = run_torchabi({"--version"});
  unsetenv("TORCHABI_LIBCLANG");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto l = lines(r.out);
  ASSERT_EQ(l.size(), 3u) << r.out;
  EXPECT_TRUE(l[2].starts_with("libclang: not loadable (")) << l[2];
  EXPECT_NE(l[2].find("/nonexistent/libclang.so"), std::string::npos) << l[2];
}

}  // namespace
}  // namespace torchabi::e2e
