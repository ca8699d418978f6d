// Where an install's release is read: the parsers on the texts real installs
// hold, and the lookups on directory layouts made here (Debian's dpkg status
// and changelog, libtorch's build-version), then on the real installs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <zlib.h>

#include "inputs/torch_install_version.h"
#include "real_torch.h"
#include "temp_tree.h"

using namespace torchabi::inputs;
namespace fs = std::filesystem;

namespace {

// A fresh directory per call, all removed when the test binary exits.
fs::path temp_dir() {
  static const torchabi::test::TempTree tree;
  static int n = 0;
  fs::path d = tree.path / std::to_string(n++);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

void write_gz(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  gzFile f = gzopen(p.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, text.data(), unsigned(text.size()));
  gzclose(f);
}

// What `dpkg-query` says, read without torchabi's parser.
std::string shell(const std::string& cmd) {
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[512];
    while (fgets(buf, sizeof buf, p)) out += buf;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

TEST(TorchInstallVersion, VersionPy) {
  EXPECT_EQ(parse_version_py("from typing import Optional\n__version__ = '2.14.1+debian'\ndebug = False\n"), "2.14.1+debian");
  EXPECT_EQ(parse_version_py("__version__: str = \"2.5.1+cu121\"\n"), "2.5.1+cu121");
  EXPECT_EQ(parse_version_py("__all__ = ['__version__']\n  __version__='1.13.0a0+git'"), "1.13.0a0+git");
  EXPECT_EQ(parse_version_py("__version__ = get_version()\n"), std::nullopt);
  EXPECT_EQ(parse_version_py("__version__ = ''\n"), std::nullopt);
  EXPECT_EQ(parse_version_py("__version_info__ = '3'\n"), std::nullopt);
}

TEST(TorchInstallVersion, HeaderChangelogAndDebianVersions) {
  EXPECT_EQ(parse_version_header("#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION_MINOR 14\n#  define TORCH_VERSION_PATCH 1\n"),
            "2.14.1");
  EXPECT_EQ(parse_version_header("#define TORCH_VERSION_MAJOR 1\n"), std::nullopt);
  EXPECT_EQ(parse_changelog_version("pytorch (2.14.1+dfsg-1) unstable; urgency=medium"), "2.14.1+dfsg-1");
  EXPECT_EQ(parse_changelog_version("garbage"), std::nullopt);
  EXPECT_EQ(debian_upstream_version("1.13.1+dfsg-4"), "1.13.1");
  EXPECT_EQ(debian_upstream_version("1:2.14.1+dfsg-1~bpo12+1"), "2.14.1");
  EXPECT_EQ(debian_upstream_version("2.15.0~rc1-1"), "2.15.0");
  EXPECT_EQ(library_name_versions("libc10.so.2.14.1"), (std::vector<std::string>{"2.14.1", "2.14", "2"}));
  EXPECT_TRUE(library_name_versions("libc10.so").empty());
  EXPECT_EQ(library_name_versions("libgomp-a34b3233.so.1"), (std::vector<std::string>{"1"}));
}

TEST(TorchInstallVersion, DpkgStatusNeedsAnInstalledPackage) {
  const std::string status =
      "Package: libtorch1.13\nStatus: deinstall ok config-files\nVersion: 1.13.0-1\n\n"
      "Package: libtorch-dev\nStatus: install ok installed\nVersion: 1.13.1+dfsg-4\n\n"
      "Package: libtorch1.13\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1.13.1+dfsg-4\n";
  EXPECT_EQ(dpkg_installed_version(status, "libtorch1.13"), "1.13.1+dfsg-4");
  EXPECT_EQ(dpkg_installed_version(status, "libtorch2.14"), std::nullopt);
}

TEST(TorchInstallVersion, DebianLibraryDirectory) {
  const fs::path root = temp_dir();
  const fs::path lib = root / "usr/lib/x86_64-linux-gnu";
  const std::vector<std::string> files = {"libc10.so", "libc10.so.7.3", "libc10.so.7.3.0", "libtorch_cpu.so.7.3.0"};
  // Upstream's file names say 7.3.0; the package is 7.3.2 (as bookworm's 1.13.1 ships *.so.1.13.0).
  write_gz(root / "usr/share/doc/libtorch7.3/changelog.Debian.gz", "pytorch (7.3.2+dfsg-2) unstable; urgency=low\n\n  * x\n");
  auto v = library_directory_version(lib, files);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "7.3.2");
  EXPECT_EQ(v->source, "Debian package libtorch7.3 7.3.2+dfsg-2 (usr/share/doc/libtorch7.3/changelog.Debian.gz)");
  // dpkg's record of what is installed comes first.
  write(root / "var/lib/dpkg/status", "Package: libtorch7.3t64\nStatus: install ok installed\nVersion: 7.3.3-1\n");
  v = library_directory_version(lib, files);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "7.3.3");
  EXPECT_EQ(v->source, "Debian package libtorch7.3t64 7.3.3-1 (var/lib/dpkg/status)");
}

TEST(TorchInstallVersion, LibraryDirectoryFallsBackToHeadersThenNames) {
  const fs::path root = temp_dir();
  const fs::path lib = root / "usr/lib";
  write(root / "usr/include/torch/csrc/api/include/torch/version.h",
        "#define TORCH_VERSION_MAJOR 7\n#define TORCH_VERSION_MINOR 4\n#define TORCH_VERSION_PATCH 5\n");
  auto v = library_directory_version(lib, {"libc10.so.7.4"});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "7.4.5");
  const fs::path other = temp_dir() / "somewhere";
  v = library_directory_version(other, {"libc10.so", "libc10.so.7.4.1", "libtorch_cpu.so.7.4"});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "7.4.1");
  EXPECT_EQ(v->source, "library file name libc10.so.7.4.1");
  EXPECT_FALSE(library_directory_version(other, {"libc10.so"}));
}

TEST(TorchInstallVersion, LibtorchDirectory) {
  const fs::path root = temp_dir();
  write(root / "include/torch/csrc/api/include/torch/version.h", "#define TORCH_VERSION_MAJOR 7\n#define TORCH_VERSION_MINOR 5\n");
  auto v = libtorch_version(root);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "7.5.0");
  write(root / "build-version", "7.5.1+cpu\n");
  v = libtorch_version(root);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "7.5.1+cpu");
  EXPECT_EQ(v->source, "build-version");
}

TEST(TorchInstallVersion, RealDebianInstalls) {
  // bookworm's libtorch, as dpkg itself reports it.
  const std::string pkg = shell("dpkg-query -W -f='${Package} ${Version}\\n' 'libtorch[0-9]*' 2>/dev/null | head -1");
  if (pkg.empty()) GTEST_SKIP() << "no libtorch package installed";
  const std::string name = pkg.substr(0, pkg.find(' ')), version = pkg.substr(pkg.find(' ') + 1);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator("/usr/lib/x86_64-linux-gnu"))
    if (e.path().filename().string().starts_with("libc10.so")) files.push_back(e.path().filename().string());
  auto v = library_directory_version("/usr/lib/x86_64-linux-gnu", files);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, debian_upstream_version(version));
  EXPECT_NE(v->source.find(name), std::string::npos) << v->source;

  TORCHABI_REQUIRE_REAL_TORCH();
  // sid's, unpacked: scripts/fetch-torch.sh records what it unpacked ("Package: libtorch2.14 Version: ...").
  std::string want;
  std::istringstream fetched(torchabi::test::real_torch_packages());
  for (std::string item; std::getline(fetched, item, ',');)
    if (item.find("Package: libtorch2") != std::string::npos || item.find("Package: libtorch1") != std::string::npos)
      want = item.substr(item.find("Version: ") + 9);
  ASSERT_FALSE(want.empty()) << torchabi::test::real_torch_packages();
  files.clear();
  for (const auto& e : fs::directory_iterator(torchabi::test::real_torch_libdir()))
    files.push_back(e.path().filename().string());
  v = library_directory_version(torchabi::test::real_torch_libdir(), files);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, debian_upstream_version(want));
}
