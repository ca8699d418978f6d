// What the project's Python files register for its C++ ops and classes:
// fake (meta) implementations that torch.compile and torch.export need,
// fake TorchBind classes, and ops defined or implemented from Python. Read
// with a line scanner, not a Python parser: decorators and calls are matched
// by name with a literal "ns::name" argument.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::schema {

struct PythonFakeClass {
  std::string qualified;             // "ns::Name" as given to register_fake_class
  std::set<std::string> methods;     // def names in the class body
  bool unflatten_classmethod = false;  // @classmethod def __obj_unflatten__
  findings::Location where;
};

struct PythonRegistrations {
  std::map<std::string, PythonFakeClass> fake_classes;
  std::set<std::string> fake_ops;         // register_fake / impl_abstract("ns::op[.overload]")
  std::set<std::string> defined_ops;      // torch.library.define / custom_op("ns::op")
  std::set<std::string> implemented_ops;  // torch.library.impl / register_kernel / custom_op
  size_t files = 0;

  // True when `set` names the op "ns::name.overload", or its overload packet "ns::name".
  static bool names(const std::set<std::string>& set, const std::string& qualified);
};

// Scans the *.py files under `roots` (skipping build trees, virtual
// environments and VCS directories).
PythonRegistrations scan_python_sources(const std::vector<std::string>& roots);

// Adds what one file's text registers.
void scan_python_text(const std::string& text, const std::string& path, PythonRegistrations& into);

}  // namespace torchabi::schema
