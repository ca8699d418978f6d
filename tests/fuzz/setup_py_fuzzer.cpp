// fuzz-links: torchabi_project
//
// Feeds arbitrary bytes to the setup.py reader as a setup.py: it must never
// crash or hang, only read values or mark them unresolved, or throw the one
// InputError of text it cannot tokenize. Globs run in an empty directory.
#include <cstdint>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "common/input_error.h"
#include "inputs/project/python_literals.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("torchabi-setup-py-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto m = torchabi::inputs::py::read_module(text, dir + "/setup.py", dir, {"CppExtension", "CUDAExtension", "f"});
    for (const auto& c : m.calls)
      for (const auto& a : c.args) (void)a.resolved();
  } catch (const torchabi::InputError&) {
  }
  return 0;
}
