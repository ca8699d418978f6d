// install_layout::root_for: the directory holding lib/ and share/torchabi/,
// found from the executable's location in each layout pip and the other
// installers make (scripts dir + platlib), an install prefix and a build tree.
#include "common/install_layout.h"

#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using torchabi::install_layout::root_for;

namespace {

class InstallLayout : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/torchabi-install-layout-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir = tmpl;
  }
  void TearDown() override { fs::remove_all(dir); }
  // A package (or prefix) at `p`: lib/torchabi-runtime/, and share/torchabi/version when given.
  void package(const fs::path& p, const std::string& version = "") {
    fs::create_directories(p / "lib/torchabi-runtime");
    if (!version.empty()) {
      fs::create_directories(p / "share/torchabi");
      std::ofstream(p / "share/torchabi/version") << version << "\n";
    }
  }
  fs::path dir;
};

TEST_F(InstallLayout, VenvScriptsDirFindsItsSitePackages) {
  package(dir / "venv/lib/python3.11/site-packages/torchabi", TORCHABI_TEST_VERSION);
  EXPECT_EQ(root_for(dir / "venv/bin/torchabi"), dir / "venv/lib/python3.11/site-packages/torchabi");
}

TEST_F(InstallLayout, Lib64AndDistPackagesCount) {
  package(dir / "usr/local/lib64/python3.12/dist-packages/torchabi");
  EXPECT_EQ(root_for(dir / "usr/local/bin/torchabi"), dir / "usr/local/lib64/python3.12/dist-packages/torchabi");
}

TEST_F(InstallLayout, PipTargetPutsThePackageNextToBin) {
  package(dir / "target/torchabi");
  EXPECT_EQ(root_for(dir / "target/bin/torchabi"), dir / "target/torchabi");
}

TEST_F(InstallLayout, AnInstallPrefixComesFirst) {
  package(dir / "prefix");
  package(dir / "prefix/lib/python3.11/site-packages/torchabi");
  EXPECT_EQ(root_for(dir / "prefix/bin/torchabi"), dir / "prefix");
}

TEST_F(InstallLayout, OfSeveralPythonsThePackageOfThisVersion) {
  package(dir / "p/lib/python3.10/site-packages/torchabi", "0.0.1");
  package(dir / "p/lib/python3.12/site-packages/torchabi", TORCHABI_TEST_VERSION);
  EXPECT_EQ(root_for(dir / "p/bin/torchabi"), dir / "p/lib/python3.12/site-packages/torchabi");
}

TEST_F(InstallLayout, ADirectoryWithoutTheRuntimeIsNotAPackage) {
  fs::create_directories(dir / "venv/lib/python3.11/site-packages/torchabi/lib");
  EXPECT_EQ(root_for(dir / "venv/bin/torchabi"), dir / "venv");
  EXPECT_EQ(root_for(""), fs::path());
}

}  // namespace
