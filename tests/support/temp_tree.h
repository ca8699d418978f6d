// A directory of files a unit test writes and removes when done: one per
// test, named after the process so parallel ctest runs never share one.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace torchabi::test {

struct TempTree {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("torchabi-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  static inline int counter = 0;
  TempTree() { std::filesystem::create_directories(path); }
  ~TempTree() { std::filesystem::remove_all(path); }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  // Writes `text` to path/name (creating its directories); returns the file's path.
  std::string write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((path / name).parent_path());
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

}  // namespace torchabi::test
