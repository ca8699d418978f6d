// Mach-O and PE libraries read through LLVM's Object library: the fixture
// libraries cross-built by fixtures/foreign_ext/build.sh, and damaged copies.
#include <filesystem>
#include <fstream>
#include <cstring>
#include <iterator>
#include <set>

#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/object_image.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

const std::string kDir = TORCHABI_FOREIGN_EXT_DIR;

std::vector<std::byte> read(const std::string& name) {
  std::ifstream in(kDir + "/" + name, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::byte> b(c.size());
  std::memcpy(b.data(), c.data(), c.size());
  return b;
}

bool built() { return fs::exists(kDir + "/libforeign_stable.dylib"); }

#define REQUIRE_FIXTURES() \
  if (!built()) GTEST_SKIP() << "fixtures/foreign_ext not built (needs clang-19 and lld-19)"

bool imports(const ObjectImage& img, const std::string& name, const std::string& library) {
  for (const auto& i : img.imports)
    if (i.name == name) return i.library == library;
  return false;
}

TEST(ObjectImage, MachODylibImportsByTwoLevelNamespace) {
  REQUIRE_FIXTURES();
  const auto bytes = read("libforeign_unstable.dylib");
  EXPECT_EQ(sniff_binary(bytes), BinaryFormat::MachO);
  const auto images = read_object_image(bytes, "libforeign_unstable.dylib");
  ASSERT_EQ(images.size(), 1u);
  const ObjectImage& img = images[0];
  EXPECT_EQ(img.machine, "arm64");
  EXPECT_EQ(img.install_name, "@rpath/libforeign_unstable.dylib");
  EXPECT_EQ(img.needed, (std::vector<std::string>{"@rpath/libtorch_cpu.dylib"}));
  EXPECT_EQ(img.min_os, "11.0");
  // The leading underscore is gone: names are as the C++ ABI mangles them.
  EXPECT_TRUE(imports(img, "aoti_torch_get_numel", "@rpath/libtorch_cpu.dylib"));
  EXPECT_TRUE(imports(img, "_ZN3c106detail14torchCheckFailEPKcS2_jS2_", "@rpath/libtorch_cpu.dylib"));
}

TEST(ObjectImage, UniversalBinaryGivesEveryArchitecture) {
  REQUIRE_FIXTURES();
  const auto bytes = read("libforeign_universal.dylib");
  EXPECT_EQ(sniff_binary(bytes), BinaryFormat::MachOUniversal);
  const auto images = read_object_image(bytes, "u.dylib");
  ASSERT_EQ(images.size(), 2u);
  std::set<std::string> machines{images[0].machine, images[1].machine};
  EXPECT_EQ(machines, (std::set<std::string>{"arm64", "x86-64"}));
  for (const auto& img : images) EXPECT_TRUE(imports(img, "torch_library_impl", "@rpath/libtorch_cpu.dylib"));
}

TEST(ObjectImage, PeImportTablePerDllAndExports) {
  REQUIRE_FIXTURES();
  const auto bytes = read("foreign_unstable.dll");
  EXPECT_EQ(sniff_binary(bytes), BinaryFormat::Pe);
  const auto images = read_object_image(bytes, "foreign_unstable.dll");
  ASSERT_EQ(images.size(), 1u);
  const ObjectImage& img = images[0];
  EXPECT_EQ(img.machine, "x86-64");
  EXPECT_EQ(img.needed, (std::vector<std::string>{"torch_cpu.dll"}));
  EXPECT_TRUE(imports(img, "?torchCheckFail@detail@c10@@YAXPEBD0I0@Z", "torch_cpu.dll"));
  EXPECT_TRUE(imports(img, "torch_library_impl", "torch_cpu.dll"));
  EXPECT_EQ(img.exports, (std::vector<std::string>{"foreign_ext_register"}));
  EXPECT_EQ(img.install_name, "foreign_unstable.dll");
}

TEST(ObjectImage, DamagedInputsAreOneInputErrorNamingThem) {
  REQUIRE_FIXTURES();
  for (const char* name : {"libforeign_stable.dylib", "foreign_stable.dll", "libforeign_universal.dylib"}) {
    const auto whole = read(name);
    for (size_t keep : {size_t(8), size_t(64), whole.size() / 4, whole.size() / 2}) {
      const std::vector<std::byte> cut(whole.begin(), whole.begin() + std::ptrdiff_t(keep));
      try {
        read_object_image(cut, name);
        ADD_FAILURE() << name << " truncated to " << keep << " bytes was accepted";
      } catch (const InputError& e) {
        EXPECT_EQ(e.input().substr(0, std::string(name).size()), name);
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      }
    }
  }
  const std::vector<std::byte> text = {std::byte{'h'}, std::byte{'i'}, std::byte{'\n'}};
  EXPECT_EQ(sniff_binary(text), BinaryFormat::Unknown);
  EXPECT_THROW(read_object_image(text, "t"), InputError);
}

TEST(ObjectImage, ObjectFilesAreNotLibraries) {
  REQUIRE_FIXTURES();
  const auto obj = kDir + ".obj/foreign_stable.arm64.o";
  if (!fs::exists(obj)) GTEST_SKIP() << obj;
  std::ifstream in(obj, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::byte> b(c.size());
  std::memcpy(b.data(), c.data(), c.size());
  try {
    read_object_image(b, "x.o");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a library"), std::string::npos) << e.what();
  }
}

TEST(ObjectImage, FuzzerFoundUnterminatedImportNameIsOneLineError) {
  // The input on which libFuzzer + ASan found LLVM's ImportDirectoryEntryRef::getName
  // running strlen past the buffer: the DLL name's RVA points at the file's last
  // bytes, with no NUL. It is a seed of the object_image fuzzer too.
  const std::string path = std::string(TORCHABI_FUZZ_CORPUS_DIR) + "/object_image_fuzzer/crash-pe-import-name-strlen";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  std::vector<char> c((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::byte> b(c.size());
  std::memcpy(b.data(), c.data(), c.size());
  try {
    read_object_image(b, "crash.dll");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), "crash.dll");
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

TEST(ObjectImage, EveryFuzzerFoundInputIsReadOrRefusedInOneLine) {
  // Each file the fuzzer kept (tests/fuzz/corpus/object_image_fuzzer) once
  // crashed the reader; under the sanitizers this test is the fuzzer's replay.
  const fs::path dir = fs::path(TORCHABI_FUZZ_CORPUS_DIR) / "object_image_fuzzer";
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::byte> b(c.size());
    std::memcpy(b.data(), c.data(), c.size());
    ++files;
    try {
      (void)read_object_image(b, "seed");
    } catch (const InputError& e2) {
      EXPECT_EQ(std::string(e2.what()).find('\n'), std::string::npos) << e.path();
    }
  }
  EXPECT_GE(files, 2u);
}

}  // namespace
}  // namespace torchabi::inputs
