// fuzz-links: torchabi_project
//
// Feeds arbitrary bytes to the build.toml and pyproject.toml readers: they
// must never crash or hang, only read values, note what they cannot use, or
// throw the one InputError of text that is not TOML. Paths resolve in an
// empty directory, so a source pattern never walks the disk.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "common/input_error.h"
#include "inputs/project/build_toml.h"
#include "inputs/project/pyproject_toml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("torchabi-toml-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  const std::string file = dir + "/build.toml";
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), size);
  try {
    auto b = torchabi::inputs::read_build_toml(file);
    for (const auto& [backend, release] : b.stable_abi) (void)torchabi::inputs::target_version_macro(release);
  } catch (const torchabi::InputError&) {
  }
  try {
    (void)torchabi::inputs::read_pyproject(file);
  } catch (const torchabi::InputError&) {
  }
  return 0;
}
