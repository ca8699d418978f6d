// Which Python runs a project's build script. A project says which Python it
// builds with: pyproject.toml's `requires-python`, a `.python-version` pin
// (pyenv, uv). Run with another one, a script fails before setup() (a
// `from typing import override` on 3.11) and the analysis falls back to a
// reading that misses part of the build. So the interpreter is chosen: the
// user's (--python, else python3) when it satisfies the project, else the
// newest one on the machine that does — pyenv's versions, uv's managed
// interpreters, conda environments, python3.X on PATH. When none does, the
// user's runs anyway and the caller says the project's Python is missing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "inputs/project/environment/python_specifier.h"

namespace torchabi::inputs {

// What the project asks of its interpreter.
struct PythonDemand {
  std::optional<VersionSpecifier> requires_python;  // [project] requires-python
  std::string requires_file;                        // the pyproject.toml it is in
  int requires_line = 0;
  std::optional<VersionSpecifier> pin;  // .python-version, as ==X.Y.*
  std::string pin_file;
  std::string pin_text;  // the line as written ("3.12")
  // Values that could not be read (a malformed requires-python), for a note.
  std::vector<std::string> unreadable;

  bool any() const { return requires_python || pin; }
  bool allows(const Pep440Version& v) const;
  // "requires-python '>=3.12' (pyproject.toml) and .python-version '3.12'"
  std::string describe() const;
};

// The demand of the project in `dir`: its pyproject.toml, and the
// .python-version in it or its nearest parent that has one (as pyenv looks).
PythonDemand read_python_demand(const std::string& dir);

// Where interpreters are looked for. from_environment() reads the
// environment; tests give their own.
struct InterpreterSearch {
  std::vector<std::string> path_dirs;    // PATH (pyenv's shims directory is skipped: its versions are read)
  std::vector<std::string> pyenv_roots;  // $PYENV_ROOT, ~/.pyenv: versions/*/bin
  std::vector<std::string> uv_roots;     // $UV_PYTHON_INSTALL_DIR, ~/.local/share/uv/python: */bin
  std::vector<std::string> conda_roots;  // $CONDA_PREFIX, ~/miniconda3, ...: bin and envs/*/bin
  static InterpreterSearch from_environment();
};

struct FoundInterpreter {
  std::string command;  // what is started
  std::string origin;   // "--python", "PATH", "pyenv", "uv", "conda"
  std::optional<Pep440Version> version;  // unset: it did not say (not runnable)
};

// `command --version`, run in `cwd` (a pyenv shim answers for the
// .python-version there). nullopt when it does not run or print a version.
std::optional<Pep440Version> interpreter_version(const std::string& command, const std::string& cwd);

// The interpreters `search` finds, one per executable file, with versions.
std::vector<FoundInterpreter> find_interpreters(const InterpreterSearch& search, const std::string& cwd);

struct InterpreterChoice {
  std::string python;  // the command to run the build script with
  std::optional<Pep440Version> version;
  // False when the project states a demand no interpreter found satisfies:
  // `python` is then the user's, run anyway.
  bool satisfies = true;
  std::string fact;                // for the report: which runs, and why
  std::vector<FoundInterpreter> found;  // what was looked at (when the user's did not satisfy)
};

// Whether `command` imports `module` (run in `cwd`).
bool interpreter_imports(const std::string& command, const std::string& module, const std::string& cwd);

// `user` is --python (given: the user named it) or python3. The user's when
// the project demands nothing or it satisfies the demand; else the newest
// satisfying interpreter `search` finds that imports `module` (setuptools,
// for a setup.py: pyenv's and uv's interpreters often have none), else the
// newest satisfying one (ties: the order of the search).
InterpreterChoice choose_interpreter(const PythonDemand& demand, const std::string& user, bool user_given,
                                     const InterpreterSearch& search, const std::string& project_dir,
                                     const std::string& module = "");

}  // namespace torchabi::inputs
