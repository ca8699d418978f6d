// build.ninja, the real build's own commands when there is no
// compile_commands.json: torch's BuildExtension (`pip install .`,
// `setup.py build_ext`) writes one per build into build/temp.<plat>-<tag>/ and
// runs ninja there; a CMake build directory made with -G Ninja has one too
// (its rules in an included CMakeFiles/rules.ninja). The manifest is
// evaluated as `ninja -t compdb` evaluates it, so the flags linted are the
// flags the compiler got — not a reconstruction from setup.py.
#pragma once

#include <optional>
#include <string>

#include "inputs/compile_db_reader.h"

namespace torchabi::inputs {

// Reads `path_or_dir` (a ninja manifest, or a directory holding build.ninja):
// one CompileCommand per build edge whose command compiles one C, C++ or CUDA
// source (a -c and a first input with a source extension), its argv split
// as the shell would, its directory the manifest's (ninja runs there), its
// file absolute. CompileDb::path is the manifest. Throws InputError naming
// the file when it is missing, larger than 64 MiB, includes deeper than 16
// files, or is not valid ninja syntax; an unknown variable is empty, as in
// ninja.
CompileDb load_build_ninja(const std::string& path_or_dir);

// True when `dir` holds a build.ninja.
bool has_build_ninja(const std::string& dir);

// The build.ninja BuildExtension left under a setuptools project: the newest
// `build/temp.*/build.ninja` below `project_dir`, if any.
std::optional<std::string> find_setuptools_ninja(const std::string& project_dir);

}  // namespace torchabi::inputs
