// Project mode: a compile database for an extension repository that has none,
// made from its build description. By default the build system is asked:
// setup.py runs in CPython with setup() and the extension classes recorded
// instead of built (setup_run.h), CMake configures into a scratch directory
// and answers through its File API (cmake_file_api.h). When running the
// project's code is forbidden, or fails, the static readers (which run
// nothing) read the files instead. Every configuration is kept, with how it
// was obtained, so that the report can show a wrong guess.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "inputs/compile_db_reader.h"
#include "inputs/project/build_configuration.h"
#include "inputs/project/build_toml.h"
#include "inputs/project/cmake_lists.h"
#include "inputs/project/setup_py.h"
#include "inputs/project/torch_location.h"

namespace torchabi::inputs {

// How project mode obtains the configurations.
struct ProjectOptions {
  std::vector<std::string> defines;  // -D NAME[=VALUE]: compile macros, or CMake cache variables
  // Run the build script (CPython) or configure (CMake) from a temporary copy
  // of the project; false: read the files only.
  bool run_build = false;
  std::string platform = "linux";  // whose sys.platform / os.name branch is linted
  // The interpreter the user names (--python; python3 by default). The build
  // script runs with it when it satisfies the project's requires-python and
  // .python-version, else with the newest one on the machine that does
  // (environment/project_interpreter.h).
  std::string python = "python3";
  bool python_given = false;  // --python was given: named in the report
  int timeout_seconds = 120;       // per child process
  // Run the build script without the sandbox (--run-build=unconfined): only
  // when the user asks, never as a fallback.
  bool unconfined = false;
};

// The torch requirement the project states (setup(install_requires=...),
// pyproject's [project] dependencies), and where.
struct StatedRequirement {
  std::string text;  // "torch>=2.10"
  std::string file;
  int line = 0;
};

// A part of the build the analysis did not cover as the project builds it
// (the script could not run and a fallback reader, or another build
// description, was used instead; sources of the build left unlinted). The
// check fails on it unless the user accepts partial analysis (--allow-partial).
struct AnalysisGap {
  std::string rule;  // project-python-unavailable, project-analysis-partial
  std::string file;
  int line = 0;
  std::string message;
};

struct ProjectBuild {
  std::string build_file;  // the file read (setup.py)
  // The configurations of the linted platform that are held to the stable
  // ABI, as compile commands (each labelled); db.path = build_file.
  CompileDb db;
  // Every configuration found, on every platform the build script branches on.
  std::vector<BuildConfiguration> configurations;
  std::vector<StatedRequirement> requirements;
  std::vector<ProjectNote> notes;                           // values that could not be resolved
  std::vector<std::pair<std::string, std::string>> facts;  // for the report: what was used
  std::vector<AnalysisGap> gaps;                            // what was not analysed as built
};

// The build description of `dir` that torchabi reads: kernel-builder's
// build.toml, else setup.py, else a pyproject.toml that declares extensions
// (setuptools ext-modules) or builds with scikit-build-core, else
// CMakeLists.txt; else, when only its Python modules build extensions with
// torch.utils.cpp_extension.load()/load_inline() (jit_load.h), `dir` itself
// with a trailing separator (also when its pyproject.toml declares nothing);
// nullopt when it has none.
std::optional<std::string> find_build_description(const std::string& dir);

// Reads `build_file` (from find_build_description). A setup.py that declares
// no CppExtension/CUDAExtension (one that drives CMake) gives way to the
// CMakeLists.txt next to it, else to the cpp_extension.load() calls of the
// project's modules; a directory is read for those calls only. `defines` are -D NAME[=VALUE]: compile macros
// for setup.py, cache variables (as `cmake -D`) for CMake. Throws InputError
// naming the file when it cannot be read or parsed.
ProjectBuild read_project_build(const std::string& build_file, const TorchLocation& torch,
                                const ProjectOptions& options);
// The static readers only (options.run_build = false).
ProjectBuild read_project_build(const std::string& build_file, const TorchLocation& torch,
                                const std::vector<std::string>& defines = {});

// Files `c` (a compile command ending in -c SOURCE) into the configuration
// `proto` describes: the one with the same unit, compiler, backend, platform
// and flags, else a new one.
void add_to_configuration(ProjectBuild& b, const BuildConfiguration& proto, const CompileCommand& c);

// db's commands from `b.configurations`: those of `platform` held to the
// stable ABI, one command per source, labelled. Replaces db.commands.
void fill_compile_db(ProjectBuild& b, const std::string& platform);

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
