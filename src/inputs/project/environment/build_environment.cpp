#include "inputs/project/environment/build_environment.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/text.h"
#include "inputs/project/timed_child.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// What CI builds of extensions set, and what a script finds here when the
// user's environment does not set it.
const std::vector<std::pair<std::string, std::string>> kAssumed = {
    // torch raises without one when CUDA is found and no GPU is; Ampere, Ada
    // and Hopper, as release wheels list them (scripts that build one
    // extension per capability, like SageAttention's, build all three).
    {"TORCH_CUDA_ARCH_LIST", "8.0;8.9;9.0"},
    {"FORCE_CUDA", "1"},
    {"MAX_JOBS", "1"},
    {"CUDA_VERSION", kStandInCudaVersion},
    {"SETUPTOOLS_SCM_PRETEND_VERSION", "0.0.0"},  // the copy has no .git for setuptools-scm
    {"PBR_VERSION", "0.0.0"},
};

// Passed through from the user's environment when set: where their
// interpreter and compilers are, never credentials.
const char* const kPassedThrough[] = {
    "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PYENV_VERSION",
    "LD_LIBRARY_PATH", "CC", "CXX", "CUDAHOSTCXX", "CMAKE_PREFIX_PATH", "ROCM_PATH", "TORCH_CUDA_ARCH_LIST",
    "MAX_JOBS", "CUDA_VERSION", "SOURCE_DATE_EPOCH",
};

// The copy has no repository: commits are zeros, versions 0.0.0, and what
// would change a repository (submodule update, fetch) does nothing.
constexpr const char* kStandInGit = R"(#!/bin/sh
# torchabi's stand-in git: the scratch copy of the project has no repository.
for a in "$@"; do
  case "$a" in
    --show-toplevel) pwd; exit 0 ;;
    --short) echo 0000000; exit 0 ;;
    describe) echo v0.0.0; exit 0 ;;
    rev-parse) head=1 ;;
    HEAD) [ -n "$head" ] && { echo 0000000000000000000000000000000000000000; exit 0; } ;;
  esac
done
[ -n "$head" ] && echo 0000000000000000000000000000000000000000
exit 0
)";

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// The command's file, as exec would find it on PATH.
std::string resolve_command(const std::string& command) {
  if (command.find('/') != std::string::npos) return fs::absolute(command).lexically_normal().string();
  std::istringstream path(env_or("PATH", "/usr/bin:/bin"));
  std::string dir;
  while (std::getline(path, dir, ':')) {
    std::error_code ec;
    const fs::path p = fs::path(dir.empty() ? "." : dir) / command;
    if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return fs::absolute(p).lexically_normal().string();
  }
  return "";
}

struct InterpreterFacts {
  std::string executable;
  std::vector<std::string> trees;  // prefixes and sys.path entries: what it reads
};

// Asks the user's interpreter (not the project's code) where it lives.
// Run in the project's directory: a pyenv shim picks the interpreter its
// .python-version names there (uv init writes one), as the user's own
// `python3 setup.py` and torch_location's query do.
InterpreterFacts probe_interpreter(const std::string& python, const std::string& project) {
  InterpreterFacts f;
  std::error_code ec;
  const ChildResult r = run_timed(
      {python, "-c", "import sys\nprint(sys.executable)\nfor p in [sys.prefix, sys.base_prefix] + sys.path: print(p)"},
      !project.empty() && fs::is_directory(project, ec) ? project : "/", 30);
  if (!r.started || r.timed_out || r.exit_code != 0) return f;
  std::istringstream lines(r.output);
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    std::error_code ec;
    if (line.empty() || !fs::exists(line, ec)) continue;
    if (first) f.executable = line;
    else f.trees.push_back(fs::absolute(line).lexically_normal().string());
    first = false;
  }
  return f;
}

}  // namespace

BuildEnvironment make_build_environment(const BuildEnvironmentRequest& request) {
  BuildEnvironment e;
  const fs::path scratch(request.scratch);
  for (const char* d : {"home", "tmp", "bin"}) fs::create_directories(scratch / d);
  {
    std::ofstream git(scratch / "bin" / "git", std::ios::binary);
    git << kStandInGit;
  }
  fs::permissions(scratch / "bin" / "git", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                              fs::perms::others_read | fs::perms::others_exec);
  Confinement& c = e.confinement;
  c.writable = {scratch.string()};
  c.env["PATH"] = (scratch / "bin").string() + ":" + env_or("PATH", "/usr/local/bin:/usr/bin:/bin");
  c.env["HOME"] = (scratch / "home").string();
  c.env["TMPDIR"] = (scratch / "tmp").string();
  c.env["LANG"] = "C.UTF-8";
  c.env["PYTHONDONTWRITEBYTECODE"] = "1";
  for (const char* name : kPassedThrough)
    if (const char* v = std::getenv(name)) c.env[name] = v;
  for (const auto& [name, value] : kAssumed) {
    if (c.env.count(name)) continue;
    c.env[name] = value;
    e.assumed.emplace_back(name, value);
  }
  // Home directories and the temporary directory (other jobs' files), and
  // the user's tree: the script sees only its copy.
  c.hidden = {"/root", "/home", "/tmp", "/var/tmp", fs::temp_directory_path().lexically_normal().string()};
  if (const char* home = std::getenv("HOME"); home && *home) c.hidden.push_back(fs::path(home).lexically_normal().string());
  if (!request.project.empty()) c.hidden.push_back(fs::absolute(request.project).lexically_normal().string());
  c.visible = request.visible;
  e.python = request.python;
  if (!request.python.empty()) {
    const std::string command = resolve_command(request.python);
    const InterpreterFacts facts = probe_interpreter(request.python, request.project);
    c.visible.insert(c.visible.end(), facts.trees.begin(), facts.trees.end());
    // A shim (pyenv's) runs a program of the home directory, which is
    // hidden: the interpreter it names is started directly instead.
    if (!command.empty() && fs::path(command).parent_path().filename() == "shims" && !facts.executable.empty()) {
      e.python = facts.executable;
    } else if (!command.empty()) {
      c.visible.push_back(fs::path(command).parent_path().string());
    }
    if (!facts.executable.empty()) c.visible.push_back(fs::path(facts.executable).parent_path().string());
  }
  e.confined = !request.unconfined;
  std::string assumed;
  for (const auto& [k, v] : e.assumed) assumed += (assumed.empty() ? "" : " ") + k + "=" + v;
  e.how = std::string(e.confined ? "sandboxed (no network, read-only system, home directories and the project hidden, "
                                   "only the scratch copy writable, cleared environment)"
                                 : "unconfined (--run-build=unconfined)") +
          (assumed.empty() ? std::string() : "; assumed " + assumed) + "; stand-in git, CUDA " + kStandInCudaVersion;
  return e;
}

}  // namespace torchabi::inputs
