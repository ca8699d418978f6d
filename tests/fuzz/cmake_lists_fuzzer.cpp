// fuzz-links: torchabi_project
//
// Feeds arbitrary bytes to the CMakeLists.txt reader: it must never crash or
// hang (loops, recursion and globs are bounded), only read targets, note what
// it cannot follow, or throw the one InputError of text it cannot parse.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "common/input_error.h"
#include "inputs/project/cmake_lists.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("torchabi-cmake-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  {
    std::ofstream out(dir + "/CMakeLists.txt", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    (void)torchabi::inputs::read_cmake_lists(dir + "/CMakeLists.txt");
  } catch (const torchabi::InputError&) {
  }
  return 0;
}
