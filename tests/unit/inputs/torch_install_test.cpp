// TorchInstall: each layout `audit --torch` accepts is recognised, its
// libraries found under every name the dynamic linker could use, its release
// read from its own files; anything else is one InputError naming the path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/input_error.h"
#include "inputs/torch_install.h"
#include "real_torch.h"
#include "standins.h"
#include "temp_tree.h"

using namespace torchabi;
using namespace torchabi::inputs;
using namespace torchabi::test;
namespace fs = std::filesystem;

namespace {

TorchLibraryNames names() { return {{"libtorch", "libc10", "libshm"}, {"libtorch_", "libc10_", "libcaffe2_"}}; }

std::vector<std::string> all_names(const TorchInstall& t) {
  std::vector<std::string> out;
  for (size_t i = 0; i < t.size(); ++i)
    for (const auto& n : t.library(i).names) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

std::string open_error(const std::string& path) {
  try {
    TorchInstall::open(path, names());
    return "";
  } catch (const InputError& e) {
    return e.line();
  }
}

// A fresh directory per call, all removed when the test binary exits.
fs::path temp_dir() {
  static const torchabi::test::TempTree tree;
  static int n = 0;
  fs::path d = tree.path / std::to_string(n++);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(TorchLibraryNames, Stems) {
  EXPECT_EQ(TorchLibraryNames::stem("libtorch_cpu.so.2.14.1"), "libtorch_cpu");
  EXPECT_EQ(TorchLibraryNames::stem("torch/lib/libc10.so"), "libc10");
  EXPECT_TRUE(names().matches("libc10_cuda.so"));
  EXPECT_TRUE(names().matches("libtorch.so.2.14"));
  EXPECT_FALSE(names().matches("libtorchaudio.so"));  // another project's library
  EXPECT_FALSE(names().matches("libtorch_.so"));       // a prefix alone is not a name
  EXPECT_FALSE(names().matches("libgomp.so.1"));
}

TEST(TorchInstall, PythonPackage) {
  TORCHABI_REQUIRE_STANDINS();
  auto t = TorchInstall::open(standin_v1(), names());
  EXPECT_EQ(t->kind(), TorchInstall::Kind::PythonPackage);
  EXPECT_EQ(t->version(), standin_v1_version());
  EXPECT_EQ(t->version_source(), "torch/version.py");
  EXPECT_EQ(all_names(*t), (std::vector<std::string>{"libc10.so", "libtorch_cpu.so"}));
  // site-packages itself is accepted too.
  auto sp = TorchInstall::open(fs::path(standin_v1()).parent_path().string(), names());
  EXPECT_EQ(sp->version(), standin_v1_version());
  EXPECT_EQ(sp->size(), 2u);
  // ... and torch/lib given directly.
  auto lib = TorchInstall::open(standin_v1() + "/lib", names());
  EXPECT_EQ(lib->kind(), TorchInstall::Kind::PythonPackage);
  EXPECT_EQ(lib->version(), standin_v1_version());
}

TEST(TorchInstall, LibtorchDirectoryWithVersionedNames) {
  TORCHABI_REQUIRE_STANDINS();
  auto t = TorchInstall::open(standin_v2(), names());
  EXPECT_EQ(t->kind(), TorchInstall::Kind::Libtorch);
  EXPECT_EQ(t->version(), standin_v2_version());
  EXPECT_EQ(t->version_source(), "build-version");
  ASSERT_EQ(t->size(), 3u);  // one entry per file, whatever the number of symlinks
  auto c10 = t->find("libc10.so.9.2");
  ASSERT_TRUE(c10);
  EXPECT_EQ(t->library(*c10).names, (std::vector<std::string>{"libc10.so", "libc10.so.9.2", "libc10.so.9.2.0"}));
  EXPECT_EQ(t->find("libc10.so"), c10);
  EXPECT_FALSE(t->find("libc10.so.9.1"));
  EXPECT_EQ(t->find_stem("libc10"), c10);
  const TorchLibrary& l = t->load(*c10);
  EXPECT_EQ(l.soname, "libc10.so.9.2");
  EXPECT_TRUE(l.exports.contains("_ZN3c107standin6resizeEl"));
  EXPECT_FALSE(l.exports.contains("_ZN3c107standin6resizeEi"));
  EXPECT_EQ(l.exports.version_definitions(), (std::vector<std::string_view>{"STANDIN_2.0"}));
  auto cpu = t->find("libtorch_cpu.so");
  ASSERT_TRUE(cpu);
  EXPECT_EQ(t->load(*cpu).needed.front(), "libc10.so.9.2");
}

TEST(TorchInstall, FoundBySonameWhenNoFileHasTheName) {
  TORCHABI_REQUIRE_STANDINS();
  // A torch/lib that only has the unversioned names (as Debian's
  // dist-packages/torch/lib symlinks) still satisfies libc10.so.9.2: the
  // dynamic linker matches an already loaded library by its soname.
  const fs::path dir = temp_dir() / "torch";
  fs::create_directories(dir / "lib");
  std::ofstream(dir / "version.py") << "__version__ = '9.2.0'\n";
  fs::create_symlink(fs::canonical(standin_v2() + "/lib/libc10.so.9.2.0"), dir / "lib/libc10.so");
  auto t = TorchInstall::open(dir.string(), names());
  auto i = t->find("libc10.so.9.2");
  ASSERT_TRUE(i);
  EXPECT_EQ(t->library(*i).names, (std::vector<std::string>{"libc10.so"}));
}

TEST(TorchInstall, WheelIsReadInMemory) {
  TORCHABI_REQUIRE_STANDINS();
  auto t = TorchInstall::open(standin_wheel(), names());
  EXPECT_EQ(t->kind(), TorchInstall::Kind::Wheel);
  EXPECT_EQ(t->version(), standin_v1_version());
  EXPECT_EQ(t->version_source(), "torch/version.py in the wheel");
  EXPECT_EQ(all_names(*t), (std::vector<std::string>{"libc10.so", "libtorch_cpu.so"}));
  auto i = t->find("libc10.so");
  ASSERT_TRUE(i);
  EXPECT_EQ(t->library(*i).label, standin_wheel() + "!torch/lib/libc10.so");
  EXPECT_TRUE(t->load(*i).exports.contains("_ZN3c107standin6resizeEi"));
}

TEST(TorchInstall, WhatIsNotAnInstallIsOneLineNamingIt) {
  const fs::path empty = temp_dir();
  EXPECT_EQ(open_error(empty.string()),
            empty.string() + ": not a PyTorch install: no PyTorch libraries (libtorch_cpu.so, libc10.so, ...) in it or "
                             "in its lib/ or torch/lib/ directory");
  EXPECT_EQ(open_error((empty / "missing").string()), (empty / "missing").string() + ": no such file or directory");
  std::ofstream(empty / "notes.txt") << "hello";
  EXPECT_NE(open_error((empty / "notes.txt").string()).find("not a PyTorch install: a file that is not a wheel"),
            std::string::npos);
  if (kHaveStandins) {
    // An extension's wheel is a wheel, but not PyTorch's.
    const std::string ext_wheel = std::string(TORCHABI_FIXTURES_DIR) + "/wheels/stable_ext-1.0-cp311-cp311-linux_x86_64.whl";
    if (fs::exists(ext_wheel)) {
      EXPECT_EQ(open_error(ext_wheel), ext_wheel + ": not a PyTorch wheel: it has no torch/lib/*.so libraries");
    }
  }
}

TEST(TorchInstall, RealDebianDirectoriesHoldOnlyPyTorchsLibraries) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string dir = real_torch_libdir();
  auto t = TorchInstall::open(dir, names());
  EXPECT_EQ(t->kind(), TorchInstall::Kind::LibraryDirectory);
  EXPECT_NE(t->version_source().find("Debian package"), std::string::npos) << t->version_source();
  auto cpu = t->find("libtorch_cpu.so");
  ASSERT_TRUE(cpu);
  const TorchLibrary& l = t->load(*cpu);
  EXPECT_TRUE(l.soname.starts_with("libtorch_cpu.so."));
  EXPECT_TRUE(t->find(l.soname));
  // Every name of the install is PyTorch's, though the directory holds others.
  for (const auto& n : all_names(*t)) EXPECT_TRUE(names().matches(n)) << n;
  // The export table holds what binutils lists as defined dynamic symbols.
  FILE* p = ::popen(("nm -D --defined-only '" + dir + "/" + l.names.front() + "' | wc -l").c_str(), "r");
  ASSERT_NE(p, nullptr);
  size_t nm_count = 0;
  ASSERT_EQ(fscanf(p, "%zu", &nm_count), 1);
  ::pclose(p);
  EXPECT_EQ(l.exports.size(), nm_count);
}
