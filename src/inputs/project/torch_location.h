// Where the torch headers of a project without a compile database come from,
// and the flags torch.utils.cpp_extension would add for that install (its
// C++ standard and the Py_LIMITED_API value), read from the install's own
// cpp_extension.py so that a newer torch's defaults need no change here.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

struct TorchLocation {
  std::vector<std::string> include_dirs;  // torch's, then Python's (setuptools adds it)
  std::string std_flag;                   // "-std=c++20"; empty when not found
  std::string limited_api;                // "0x030A0000"; empty when not found
  std::string how;                        // one line: where these came from, or why nothing was found
  bool found() const { return !include_dirs.empty(); }
};

// `torch_include` (--torch-include) when given; else the torch of `python`
// (a `python3 -c` that imports torch and prints its include paths; it runs
// the environment's Python, never the project's code).
TorchLocation locate_torch(const std::string& torch_include, const std::string& python = "python3");

// The release of the torch headers in `include_dirs` ("2.14.1"), from their
// version.h; "" when none says.
std::string torch_headers_version(const std::vector<std::string>& include_dirs);

// The C++ standard and Py_LIMITED_API value that a cpp_extension.py uses.
void read_cpp_extension_defaults(const std::string& cpp_extension_py, TorchLocation& into);

}  // namespace torchabi::inputs
