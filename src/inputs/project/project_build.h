// Project mode: a compile database for an extension repository that has none,
// made by reading (never running) its build description — today setup.py
// with torch.utils.cpp_extension — and adding the flags that build would add
// (torch_location.h). What it used and what it could not resolve are kept,
// so that the report can show a wrong guess.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "inputs/compile_db_reader.h"
#include "inputs/project/build_toml.h"
#include "inputs/project/cmake_lists.h"
#include "inputs/project/setup_py.h"
#include "inputs/project/torch_location.h"

namespace torchabi::inputs {

struct ProjectBuild {
  std::string build_file;  // the file read (setup.py)
  CompileDb db;            // db.path = build_file
  std::vector<ProjectNote> notes;                           // values that could not be resolved
  std::vector<std::pair<std::string, std::string>> facts;  // for the report: what was used
};

// The build description of `dir` that torchabi reads: kernel-builder's
// build.toml, else setup.py, else a pyproject.toml that declares extensions
// (setuptools ext-modules) or builds with scikit-build-core, else
// CMakeLists.txt; nullopt when it has none.
std::optional<std::string> find_build_description(const std::string& dir);

// Reads `build_file` (from find_build_description). A setup.py that declares
// no CppExtension/CUDAExtension (one that drives CMake) gives way to the
// CMakeLists.txt next to it. `defines` are -D NAME[=VALUE]: compile macros
// for setup.py, cache variables (as `cmake -D`) for CMake. Throws InputError
// naming the file when it cannot be read or parsed.
ProjectBuild read_project_build(const std::string& build_file, const TorchLocation& torch,
                                const std::vector<std::string>& defines = {});

// The command CMake's Makefile/Ninja generators write for `source` of `t`
// (gcc): definitions, include directories, torch's as -isystem when it links
// torch, the standard, then the target's options.
CompileCommand cmake_command(const CMakeTarget& t, const std::string& source, const TorchLocation& torch);

// The command kernel-builder's generated CMake project would run for `source`
// of component `c` (TORCH_TARGET_VERSION from the stable-abi release that
// applies to the component's backend, "" for none).
CompileCommand kernel_builder_command(const BuildToml& b, const KernelComponent& c, const std::string& source,
                                      const std::string& dir, const std::string& stable_abi, const TorchLocation& torch);

// The command setuptools' BuildExtension would run for `source` of `ext`.
CompileCommand setuptools_command(const ExtensionSpec& ext, const std::string& source, const std::string& dir,
                                  const TorchLocation& torch);

}  // namespace torchabi::inputs
