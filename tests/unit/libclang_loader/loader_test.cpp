// The libclang loader: nothing maps libclang until a clang_* function is
// called; then it loads once (from any number of threads); when it cannot,
// the error is one line naming the library, and a later call may still load.
#include <gtest/gtest.h>

#include <clang-c/Index.h>
#include <cstdlib>
#include <link.h>
#include <string>
#include <thread>
#include <vector>

#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "common/input_error.h"
#include "common/mapped_file.h"
#include "inputs/elf_view.h"

using torchabi::InputError;
namespace libclang = torchabi::source::libclang;

namespace {

bool mapped(const std::string& part) {
  struct Search {
    std::string part;
    bool found = false;
  } s{part};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        if (info->dlpi_name && std::string(info->dlpi_name).find(s->part) != std::string::npos) s->found = true;
        return 0;
      },
      &s);
  return s.found;
}

std::string load_error() {
  try {
    libclang::load();
  } catch (const InputError& e) {
    return e.line();
  }
  return "";
}

// Restores the environment variable after a test changed it.
struct LibclangOverride {
  explicit LibclangOverride(const char* path) { setenv("TORCHABI_LIBCLANG", path, 1); }
  ~LibclangOverride() { unsetenv("TORCHABI_LIBCLANG"); }
};

}  // namespace

TEST(LibclangLoader, TorchabiDoesNotLinkLibclang) {
  torchabi::MappedFile bin(TORCHABI_BIN);
  torchabi::inputs::ElfView elf(bin.bytes(), TORCHABI_BIN);
  ASSERT_FALSE(elf.needed().empty());
  for (std::string_view lib : elf.needed()) {
    EXPECT_EQ(lib.find("libclang"), std::string_view::npos) << lib;
    EXPECT_EQ(lib.find("libLLVM"), std::string_view::npos) << lib;
  }
}

// ctest runs each test in a process of its own; when the whole binary runs in
// one process, the tests after the first load see libclang loaded already.
#define SKIP_IF_LOADED() \
  if (mapped("libclang")) GTEST_SKIP() << "libclang was loaded by an earlier test of this process"

TEST(LibclangLoader, LoadsOnFirstCallOnly) {
  // No skip here: libclang mapped at this point means something links it.
  EXPECT_FALSE(mapped("libclang")) << "libclang is mapped before any clang_* call";
  CXIndex index = clang_createIndex(0, 0);
  ASSERT_NE(index, nullptr);
  EXPECT_TRUE(mapped("libclang"));
  clang_disposeIndex(index);
}

TEST(LibclangLoader, ParsesFromManyThreadsAtOnce) {
  // The first calls race to load the library; every thread must see it loaded.
  std::vector<std::string> kinds(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < kinds.size(); ++i) {
    threads.emplace_back([&kinds, i] {
      CXIndex index = clang_createIndex(0, 0);
      const char* args[] = {"-xc++", "-std=c++17"};
      CXUnsavedFile file{"t.cpp", "int f();", 8};
      CXTranslationUnit tu = nullptr;
      if (clang_parseTranslationUnit2(index, "t.cpp", args, 2, &file, 1, 0, &tu) == CXError_Success) {
        CXString s = clang_getCursorSpelling(clang_getTranslationUnitCursor(tu));
        kinds[i] = clang_getCString(s);
        clang_disposeString(s);
        clang_disposeTranslationUnit(tu);
      }
      clang_disposeIndex(index);
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& k : kinds) EXPECT_EQ(k, "t.cpp");
}

TEST(LibclangLoader, MissingLibraryIsOneLineNamingIt) {
  SKIP_IF_LOADED();
  {
    LibclangOverride env("/nonexistent/libclang-test.so");
    const std::string line = load_error();
    EXPECT_EQ(line.rfind("/nonexistent/libclang-test.so: cannot load libclang (from TORCHABI_LIBCLANG): ", 0), 0u)
        << line;
    EXPECT_NE(line.find("No such file"), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_FALSE(mapped("libclang"));
  }
  // A failed load is not remembered: with the library available it loads.
  EXPECT_EQ(load_error(), "");
  EXPECT_TRUE(mapped("libclang"));
}

TEST(LibclangLoader, ALibraryThatIsNotLibclangIsRejected) {
  SKIP_IF_LOADED();
  LibclangOverride env("libc.so.6");
  const std::string line = load_error();
  EXPECT_EQ(line.rfind("libc.so.6: not libclang, or older than the one torchabi was built with: it has no function clang_", 0),
            0u)
      << line;
}
