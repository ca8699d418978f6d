// What a pyproject.toml says about compiling an extension, read as data:
// scikit-build-core's CMake project and cache variables, or setuptools'
// declarative ext-modules (with torch's BuildExtension when it is the
// build_ext command).
#pragma once

#include <string>
#include <vector>

#include "inputs/project/setup_py.h"  // ExtensionSpec, ProjectNote

namespace torchabi::inputs {

struct PyProject {
  bool scikit_build = false;               // build-backend scikit_build_core, or a [tool.scikit-build] table
  std::string cmake_source_dir;            // absolute; the pyproject's directory by default
  std::vector<std::string> cmake_defines;  // NAME=VALUE, as scikit-build-core passes them to cmake -D
  std::string project_name;                // [project] name, version ("" when dynamic)
  std::string project_version;
  bool build_extension = false;            // [tool.setuptools.cmdclass] build_ext is torch's BuildExtension
  std::vector<ExtensionSpec> extensions;   // [[tool.setuptools.ext-modules]]
  std::vector<ProjectNote> notes;

  bool declares_build() const { return scikit_build || !extensions.empty(); }
};

// Throws InputError naming the file when it cannot be read or is not TOML.
PyProject read_pyproject(const std::string& path);

}  // namespace torchabi::inputs
