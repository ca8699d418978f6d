// PyTorch's own files recognised from metadata and layout (torch_distribution.h),
// and the version names the load diagnosis compares (load_diagnosis.h).
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>

#include "inputs/load_diagnosis.h"
#include "inputs/library_search.h"
#include "inputs/python/torch_distribution.h"
#include "temp_tree.h"

using namespace torchabi::inputs;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

}  // namespace

TEST(TorchDistribution, RecordAndPackageLayoutDecide) {
  const torchabi::test::TempTree tree;
  const fs::path site = tree.path / "site-packages";
  write(site / "torch-2.14.1+cu126.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.14.1+cu126\n");
  write(site / "torch-2.14.1+cu126.dist-info/RECORD", "torch/lib/libtorch_cpu.so,,\nfunctorch/_C.so,,\n");
  write(site / "torch/__init__.py", "");
  write(site / "torch/version.py", "__version__ = '2.14.1+cu126'\n");
  write(site / "torch/lib/libtorch_cpu.so", "");
  write(site / "torch/lib/libnccl-abc.so.2", "");  // not in RECORD, but inside the package
  write(site / "functorch/_C.so", "");
  write(site / "torchaudio/lib/libtorchaudio.so", "");
  TorchOwnership own;
  const TorchDistribution* t = own.owner_of((site / "torch/lib/libtorch_cpu.so").string());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version, "2.14.1+cu126");
  EXPECT_EQ(t->release(), "2.14.1");
  EXPECT_EQ(t->package_dir, (site / "torch").string());
  EXPECT_EQ(t->evidence, (site / "torch-2.14.1+cu126.dist-info").string());
  EXPECT_NE(own.owner_of((site / "torch/lib/libnccl-abc.so.2").string()), nullptr);
  EXPECT_NE(own.owner_of((site / "functorch/_C.so").string()), nullptr);  // by RECORD
  EXPECT_EQ(own.owner_of((site / "torchaudio/lib/libtorchaudio.so").string()), nullptr);
}

TEST(TorchDistribution, LayoutWithoutMetadataAndADirectoryThatOnlyHasTheName) {
  const torchabi::test::TempTree tree;
  write(tree.path / "a/torch/__init__.py", "");
  write(tree.path / "a/torch/version.py", "from typing import Optional\n__version__ = \"2.9.0a0+git1234\"\n");
  write(tree.path / "a/torch/lib/libc10.so", "");
  write(tree.path / "b/torch/lib/libc10.so", "");  // no torch/__init__.py, no version.py: not PyTorch
  TorchOwnership own;
  const TorchDistribution* t = own.owner_of((tree.path / "a/torch/lib/libc10.so").string());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version, "2.9.0a0+git1234");
  EXPECT_EQ(t->evidence, (tree.path / "a/torch/version.py").string());
  EXPECT_EQ(own.owner_of((tree.path / "b/torch/lib/libc10.so").string()), nullptr);
}

TEST(TorchDistribution, CondaMetaSaysWhichFilesArePyTorchs) {
  const torchabi::test::TempTree tree;
  write(tree.path / "conda-meta/libtorch-2.14.1-h1_0.json",
        R"({"name": "libtorch", "version": "2.14.1", "files": ["lib/libtorch_cpu.so"]})");
  write(tree.path / "conda-meta/libtorchvision-0.27-h2_0.json",  // a name that only starts like one
        R"({"name": "libtorchvision", "version": "0.27", "files": ["lib/libtorchvision.so"]})");
  write(tree.path / "lib/libtorch_cpu.so", "");
  write(tree.path / "lib/libtorchvision.so", "");
  TorchOwnership own;
  const TorchDistribution* t = own.owner_of((tree.path / "lib/libtorch_cpu.so").string());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version, "2.14.1");
  EXPECT_EQ(t->package_dir, tree.path.string());
  EXPECT_EQ(own.owner_of((tree.path / "lib/libtorchvision.so").string()), nullptr);
}

TEST(TorchDistribution, VersionPy) {
  EXPECT_EQ(torch_version_py("__version__ = '2.14.1+debian'\n"), "2.14.1+debian");
  EXPECT_EQ(torch_version_py("x = 1\n__version__: str = \"2.10.0\"\n"), "2.10.0");
  EXPECT_EQ(torch_version_py("version = '1'\n"), "");
}

TEST(LoadDiagnosis, VersionNamesCompareNumerically) {
  EXPECT_TRUE(version_name_less("GLIBCXX_3.4.9", "GLIBCXX_3.4.30"));
  EXPECT_FALSE(version_name_less("GLIBCXX_3.4.32", "GLIBCXX_3.4.30"));
  EXPECT_TRUE(version_name_less("GLIBC_2.9", "GLIBC_2.38"));
  EXPECT_EQ(version_family("CXXABI_1.3.15"), "CXXABI");
  EXPECT_EQ(version_family("GLIBC_2.2.5"), "GLIBC");
}

TEST(LibrarySearch, LdSoConfIncludesAndRoot) {
  const torchabi::test::TempTree tree;
  write(tree.path / "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  write(tree.path / "etc/ld.so.conf.d/x.conf", "# comment\n/opt/x/lib\n");
  write(tree.path / "opt/x/lib/libx.so.1", "");
  const auto dirs = system_library_dirs(tree.path.string());
  ASSERT_FALSE(dirs.empty());
  EXPECT_EQ(dirs[0], "/opt/x/lib");
  LibrarySearch s;
  s.root = tree.path.string();
  EXPECT_EQ(find_library("libx.so.1", s), (tree.path / "opt/x/lib/libx.so.1").string());
  EXPECT_EQ(find_library("liby.so.1", s), std::nullopt);
}
