// What a Python caller of real torch gets when a kernel throws: the Python
// exception type and message, from the C++ type the runtime caught, through
// the catch clauses of rules/runtime/kernel_exceptions.tsv (pybind11's
// translation, checked against real PyTorch).
#pragma once

#include <string>
#include <vector>

#include "analyzers/runtime/shim/thrown_type.h"
#include "inputs/rules_source.h"

namespace torchabi::runtime_driver {

struct PythonErrorRule {
  std::string cxx_type;     // "std::invalid_argument", or "..." for anything
  std::string python_type;  // "ValueError"
  std::string message;      // "what()", or the literal text Python gets
};

// Throws InputError naming the file when the table is malformed or has no
// catch-all row.
std::vector<PythonErrorRule> load_python_error_rules(const inputs::RulesSource& rules);

struct PythonError {
  std::string type;
  std::string message;
  bool keeps_message = true;  // false: the kernel's own message is lost
  std::string str() const { return type + ": " + message; }
};

PythonError python_error_for(const runtime::ThrownType& thrown, const std::string& what,
                             const std::vector<PythonErrorRule>& rules);

}  // namespace torchabi::runtime_driver
