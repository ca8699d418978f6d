// Installed distributions read from site-packages directories: RECORD (CSV,
// quoted paths, files outside the directory), egg-info's installed-files.txt,
// and the top-level fallback when an installer kept no list.
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>

#include "inputs/python/site_packages.h"
#include "temp_tree.h"

using namespace torchabi::inputs;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

}  // namespace

TEST(SitePackages, RecordPathsAreResolvedAgainstTheSiteDirectory) {
  const torchabi::test::TempTree tree;
  const fs::path site = tree.path / "site-packages";
  write(site / "My_Ext-1.2.dist-info/METADATA", "Metadata-Version: 2.1\nName: My_Ext\nVersion: 1.2\n");
  write(site / "My_Ext-1.2.dist-info/RECORD",
        "my_ext/_C.so,sha256=abc,10\n\"my_ext/odd,name.so\",,\n../../../bin/my-tool,,\nmy_ext/_C.so,,\n");
  const auto dists = read_distributions({site.string()});
  ASSERT_EQ(dists.size(), 1u);
  const auto& d = dists[0];
  EXPECT_EQ(d.name, "My_Ext");
  EXPECT_EQ(d.normalized, "my-ext");
  EXPECT_EQ(d.version, "1.2");
  EXPECT_EQ(d.files_from, "RECORD");
  EXPECT_EQ(d.files, (std::vector<std::string>{(site.parent_path().parent_path().parent_path() / "bin/my-tool").string(),
                                               (site / "my_ext/_C.so").string(), (site / "my_ext/odd,name.so").string()}));
}

TEST(SitePackages, EggInfoAndTopLevelFallback) {
  const torchabi::test::TempTree tree;
  const fs::path site = tree.path / "dist-packages";
  write(site / "old-0.1.egg-info/PKG-INFO", "Metadata-Version: 1.1\nName: old\nVersion: 0.1\n");
  write(site / "old-0.1.egg-info/installed-files.txt", "../old/_x.so\n../old/__init__.py\n");
  write(site / "old/_x.so", "");
  // Debian strips RECORD: the packages top_level.txt names are the files.
  write(site / "debian_pkg-3.0.dist-info/METADATA", "Name: debian-pkg\nVersion: 3.0\n");
  write(site / "debian_pkg-3.0.dist-info/top_level.txt", "dpkg_mod\n");
  write(site / "dpkg_mod/sub/_y.so", "");
  // Neither: the distribution's own name.
  write(site / "torch-2.14.1.dist-info/METADATA", "Name: torch\nVersion: 2.14.1\n");
  write(site / "torch/_C.so", "");
  // No metadata at all: not a distribution.
  fs::create_directories(site / "broken-1.0.dist-info");

  const auto dists = read_distributions({site.string()});
  ASSERT_EQ(dists.size(), 3u);
  EXPECT_EQ(dists[0].normalized, "debian-pkg");
  EXPECT_EQ(dists[0].files_from, "its top-level packages");
  EXPECT_EQ(dists[0].files, std::vector<std::string>{(site / "dpkg_mod/sub/_y.so").string()});
  EXPECT_EQ(dists[1].normalized, "old");
  EXPECT_EQ(dists[1].files_from, "installed-files.txt");
  EXPECT_EQ(dists[1].files.size(), 2u);
  EXPECT_EQ(dists[2].normalized, "torch");
  EXPECT_EQ(dists[2].files, std::vector<std::string>{(site / "torch/_C.so").string()});
}

TEST(SitePackages, TheFirstDirectoryShadowsLaterOnes) {
  const torchabi::test::TempTree tree;
  const fs::path& root = tree.path;
  write(root / "a/x-2.0.dist-info/METADATA", "Name: x\nVersion: 2.0\n");
  write(root / "b/x-1.0.dist-info/METADATA", "Name: x\nVersion: 1.0\n");
  const auto dists = read_distributions({(root / "a").string(), (root / "b").string(), (root / "missing").string()});
  ASSERT_EQ(dists.size(), 1u);
  EXPECT_EQ(dists[0].version, "2.0");
  PythonEnvironment env;
  env.distributions = dists;
  EXPECT_NE(env.find("X"), nullptr);
  EXPECT_EQ(env.find("y"), nullptr);
}
