// The extensions a setup.py declares with torch.utils.cpp_extension
// (CppExtension / CUDAExtension), read without running it (the fallback when
// running it, setup_run.h, is forbidden or fails) by CPython's parser
// (python_literals.h): what a setuptools build would compile, with which
// include directories, macros and flags.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace torchabi::inputs {

// Something the reader could not resolve statically, and where.
struct ProjectNote {
  std::string file;
  int line = 0;
  std::string message;
  // The rule it is reported under and what to do: "" for
  // project-flag-unresolved (a value of the build that could not be read).
  std::string rule = {};
  std::string help = {};
};

struct ExtensionSpec {
  std::string name;                  // "pkg._C"
  bool cuda = false;                 // CUDAExtension
  int line = 0;                      // of the call
  std::vector<std::string> sources;  // absolute
  std::vector<std::string> include_dirs;
  std::vector<std::pair<std::string, std::optional<std::string>>> define_macros;
  std::vector<std::string> cxx_args;   // extra_compile_args (a list, or its "cxx" entry)
  std::vector<std::string> nvcc_args;  // extra_compile_args["nvcc"]
  bool py_limited_api = false;
  // What of each compiler's flags the reader could not determine ("" when
  // everything was read): findings must not take it as absent.
  std::string unresolved_cxx, unresolved_nvcc;
};

struct SetupPy {
  std::vector<ExtensionSpec> extensions;
  std::vector<ProjectNote> notes;
  // What the reading took as given of the machine (py::Module::given).
  std::vector<std::string> given;
};

// Read with `python`'s parser. Throws InputError naming the file when it
// cannot be read or parsed.
SetupPy read_setup_py(const std::string& path, const std::string& python = "python3");

}  // namespace torchabi::inputs
