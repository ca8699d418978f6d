// What was thrown, as C++ catch clauses see it: the dynamic type of the
// exception being handled and every public base class it can be caught as.
// What a Python caller of torch gets depends on that (pybind11 picks the first
// catch clause that matches), so the driver maps it through
// rules/runtime/kernel_exceptions.tsv.
#pragma once

#include <string>
#include <vector>

namespace torchabi::runtime {

struct ThrownType {
  std::string name;                  // demangled dynamic type: "std::invalid_argument", "int"
  std::vector<std::string> catchable_as;  // name first, then its public bases (breadth first)
};

// Only meaningful inside a catch handler; an empty name when nothing is being handled.
ThrownType current_thrown_type();

}  // namespace torchabi::runtime
