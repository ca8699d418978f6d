// Extensions built just-in-time: torch.utils.cpp_extension.load(name,
// sources, extra_cflags=..., extra_cuda_cflags=..., extra_include_paths=...)
// and load_inline(name, cpp_sources, cuda_sources, functions=...), called by
// a project's Python modules (ComfyUI nodes, research code) instead of a
// setup.py. The calls are found and read without running anything, with the
// same reader as setup.py's (python_literals.h: CPython's parser), and turned
// into the commands torch's JIT build (_write_ninja_file_to_build_library)
// runs on Linux.
#pragma once

#include <string>
#include <vector>

#include "inputs/compile_db_reader.h"
#include "inputs/project/project_build.h"
#include "inputs/project/setup_py.h"
#include "inputs/project/torch_location.h"

namespace torchabi::inputs {

// One load()/load_inline() call.
struct JitLoad {
  // name, sources (absolute), include_dirs (extra_include_paths), cxx_args
  // (extra_cflags), nvcc_args (extra_cuda_cflags), cuda (with_cuda, or any
  // .cu/.cuh source when not given), line of the call.
  ExtensionSpec ext;
  std::string file;      // the Python file that calls it
  std::string function;  // "load" or "load_inline"
  bool standalone = false;          // is_standalone=True: no TORCH_EXTENSION_NAME / TORCH_API_INCLUDE_EXTENSION_H
  bool with_cuda_given = false;     // with_cuda= was a literal boolean
  bool inline_written = false;      // load_inline: main.cpp / cuda.cu written to a scratch directory
  bool recorded = false;            // recorded when its module was imported (jit_run.h), not read
};

struct JitLoads {
  std::vector<JitLoad> loads;
  std::vector<ProjectNote> notes;  // values that could not be resolved, with file and line
};

// How many Python files (and bytes each) the walk reads at most.
inline constexpr size_t kJitMaxFiles = 4000;
inline constexpr size_t kJitMaxFileBytes = 1 << 20;

// The Python files below `dir` that call torch.utils.cpp_extension.load() or
// load_inline() (under any of the import forms), sorted. Hidden directories,
// virtual environments, build/, dist/, site-packages, node_modules, git
// submodules and third-party directories are skipped; at most kJitMaxFiles
// files of at most kJitMaxFileBytes are read.
std::vector<std::string> find_jit_load_files(const std::string& dir);

// The load()/load_inline() calls of one Python file. Relative source and
// include paths are taken relative to `project_dir` (the working directory a
// script is usually started from), else to the file's directory. load_inline's
// literal sources are written, as torch writes them (main.cpp with
// `#include <torch/extension.h>` and the generated PYBIND11_MODULE, cuda.cu),
// into `inline_dir`/<name>/; empty `inline_dir`: they are a note. `python`
// parses it. Throws InputError naming the file when it cannot be read or
// parsed.
JitLoads read_jit_loads(const std::string& py_file, const std::string& project_dir, const std::string& inline_dir,
                        const std::string& python = "python3");

// The command torch's JIT build runs on Linux for `source` of `load`:
// -DTORCH_EXTENSION_NAME=<name> -DTORCH_API_INCLUDE_EXTENSION_H (not when
// standalone), -I for extra_include_paths, -isystem for torch's (and
// Python's) headers; then for c++ -fPIC, the default -std and extra_cflags;
// for nvcc (.cu/.cuh when with_cuda) --compiler-options -fPIC,
// extra_cuda_cflags and the default -std unless one was given.
CompileCommand jit_load_command(const JitLoad& load, const std::string& source, const std::string& dir,
                                const TorchLocation& torch);

// A project built with cpp_extension.load(): the calls of `py_files` (every
// file find_jit_load_files(dir) returns when empty), one configuration per
// extension and compiler, method "cpp_extension.load() read". load_inline
// sources go to a scratch directory that the compile commands point into:
// remove_jit_scratch_dirs() once they are linted (else at a normal exit).
// `recorded`: the calls made when the modules were imported (jit_run.h);
// each replaces the call read at its file and line, and a file whose every
// call was recorded drops what its reading could not resolve. `python`
// parses the files.
ProjectBuild read_jit_load_build(const std::string& dir, const std::vector<std::string>& py_files,
                                 const TorchLocation& torch, const std::vector<std::string>& defines,
                                 const std::vector<JitLoad>* recorded = nullptr, const std::string& python = "python3");

// Removes the scratch directories of load_inline sources written so far.
void remove_jit_scratch_dirs();

}  // namespace torchabi::inputs
