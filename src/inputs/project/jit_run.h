// cpp_extension.load() calls whose arguments only the running module knows:
// a helper `load_ext(name, cur_dir, sources)` that every kernel module calls
// with its own values, sources from a comprehension, flags from
// `common.copy()`. Reading the calls (jit_load.h) leaves those unknown;
// importing the modules, as the application does, gives them. The modules
// are imported under record_jit_loads.py in the build environment setup.py
// runs in (environment/build_environment.h: sandboxed, a temporary copy, the
// stand-in torch and CUDA), with load() recorded instead of compiling.
#pragma once

#include <string>
#include <vector>

#include "inputs/project/jit_load.h"
#include "inputs/project/project_build.h"

namespace torchabi::inputs {

struct JitRunResult {
  bool ran = false;                 // the modules were imported (some may have raised)
  std::vector<JitLoad> loads;       // every call made on import, paths mapped back to the project
  std::vector<ProjectNote> notes;   // modules that raised
  std::vector<std::string> raised;  // what they raised, one line each (mapped back)
  std::vector<std::pair<std::string, std::string>> facts;  // what the imports were given, by kind
  std::string how;                  // "sandboxed: ..." for the report
  std::string failure;              // when !ran: one line, why
};

// Imports the modules among `py_files` (the files find_jit_load_files
// returned) that call load() when imported, and the project's modules that
// call their load()ing functions when imported.
JitRunResult run_jit_loads(const std::string& dir, const std::vector<std::string>& py_files, const TorchLocation& torch,
                           const ProjectOptions& options);

}  // namespace torchabi::inputs
