// lint's automatic `rules import`: when a TU's include path holds a torch
// with stable headers, the facts (which release introduced each stable API)
// come from those headers rather than only from torchabi's shipped rules.
// The import runs in a child process (libclang state never enters the
// parent, which forks the TU workers) and is cached on the headers' stamps.
#pragma once

#include <string>
#include <vector>

#include "analyzers/source/lint_env.h"
#include "inputs/compile_db_args.h"

namespace torchabi::source {

// Torch include directories (with torch/csrc/stable/) in the TUs' include paths.
std::vector<std::string> torch_include_dirs(const std::vector<inputs::ClangArgs>& tus);

// Imports each directory into env (stable_apis, digest, imported_from).
// Returns one line per directory that could not be imported.
std::vector<std::string> import_torch_headers(LintEnv& env, const std::vector<std::string>& dirs,
                                              const std::string& cache_dir);

}  // namespace torchabi::source
