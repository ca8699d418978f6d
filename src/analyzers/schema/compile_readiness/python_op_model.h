// What a project's Python registers for its operators, per registration:
// fake kernels, autograd formulas, kernels and ops defined from Python, with
// the registered functions' parameters. Read by python_op_scan.py, run in the
// user's python3 with CPython's own `ast` (it parses, never imports, so the
// project's code does not run and no sandbox is needed).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::schema {

struct PyParam {
  std::string name;
  bool keyword_only = false;
  std::optional<std::string> default_text;  // as written ("1.0", "None")
  std::string annotation;                   // as written; empty when none
};

struct PyFunction {
  std::string name;  // "<lambda>" for a lambda
  findings::Location where;
  std::vector<PyParam> params;  // positional ones first, then keyword-only
  bool varargs = false, varkw = false;
  // Per `return` of its own body: the length of the tuple literal it returns,
  // -1 when it returns something else.
  std::vector<int> returned_tuples;
};

struct PyOpRegistration {
  enum class Kind { Fake, Meta, Autograd, Kernel, Define, CustomOp };
  Kind kind = Kind::Fake;
  std::string api;      // the callee as written ("torch.library.register_fake", "lib.impl")
  std::string op;       // "ns::name[.overload]"; empty when not resolvable statically
  std::string op_text;  // the op's expression as written
  findings::Location where;
  std::string key;     // dispatch key / device types of an impl or register_kernel
  std::string schema;  // Define: the schema text as given
  std::optional<PyFunction> function, backward, setup_context;
};

struct PyOpRef {  // torch.ops.ns.op[.overload] in the project's Python
  std::string op;
  findings::Location where;
};

struct PythonOpModel {
  bool available = false;  // false: no python3 could read the files (reason says why)
  std::string reason;
  size_t files = 0;  // .py files found (tests, build trees and environments skipped)
  std::vector<std::string> roots;  // the package directories searched (python_package_roots)
  std::vector<PyOpRegistration> registrations;
  std::vector<PyOpRef> refs;
  std::vector<std::string> parse_errors;  // "file:line: message", files CPython could not parse

  static const char* kind_name(PyOpRegistration::Kind k);
};

// Reads the .py files under `roots` with `python` (default: python3 on PATH).
// Never throws: an interpreter that cannot run leaves `available` false.
PythonOpModel read_python_ops(const std::vector<std::string>& roots, const std::string& python = "python3");

// Where the Python of each root is searched: the nearest directory at or above
// it holding a build description (setup.py, pyproject.toml, setup.cfg), not
// above the repository's top; the root itself when there is none.
std::vector<std::string> python_package_roots(const std::vector<std::string>& roots);

// The model from the scanner's JSON output (exposed for tests).
PythonOpModel python_ops_from_json(const std::string& json_text);

}  // namespace torchabi::schema
