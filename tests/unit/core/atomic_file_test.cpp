#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "common/atomic_file.h"
#include "common/input_error.h"

namespace fs = std::filesystem;

static std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(AtomicFile, ReplacesContentAndLeavesNoTemporaries) {
  fs::path dir = fs::temp_directory_path() / ("atomic-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path f = dir / "report.json";
  torchabi::write_file_atomically(f.string(), "first");
  torchabi::write_file_atomically(f.string(), "second");
  EXPECT_EQ(slurp(f), "second");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, FailureKeepsTheOldFileAndNamesThePath) {
  fs::path dir = fs::temp_directory_path() / ("atomic-ro-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path f = dir / "keep.txt";
  torchabi::write_file_atomically(f.string(), "original");
  ::chmod(dir.c_str(), 0555);
  if (::geteuid() != 0) {  // root ignores directory permissions
    try {
      torchabi::write_file_atomically(f.string(), "new");
      ADD_FAILURE() << "expected an InputError";
    } catch (const torchabi::InputError& e) {
      EXPECT_EQ(e.input(), f.string());
    }
  }
  EXPECT_THROW(torchabi::write_file_atomically((dir / "missing-dir" / "x").string(), "x"), torchabi::InputError);
  ::chmod(dir.c_str(), 0755);
  EXPECT_EQ(slurp(f), "original");
  fs::remove_all(dir);
}
