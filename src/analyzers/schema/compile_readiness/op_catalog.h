// Every operator the project defines, from C++ (m.def) and from Python
// (torch.library.define, Library.define, custom_op), by qualified name, with
// its schema when one is written; and what the project registers for each
// (fake and Meta kernels, in Python and C++).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzers/schema/ast.h"
#include "analyzers/schema/registrations/check_context.h"

namespace torchabi::schema {

struct CatalogOp {
  std::string qualified;                  // "ns::name" or "ns::name.overload"
  const FunctionSchema* schema = nullptr;  // nullptr: inferred (custom_op, m.def("name", &fn))
  findings::Location where;               // the def
  bool from_python = false;
};

class OpCatalog {
public:
  explicit OpCatalog(const RegistrationContext& ctx);

  const CatalogOp* find(const std::string& qualified) const;
  // The namespaces the project defines ops or libraries in.
  bool project_namespace(const std::string& ns) const { return namespaces_.count(ns) > 0; }
  // The defined op whose name is closest to `qualified` within `max_distance`; empty when none.
  std::string closest(const std::string& qualified, size_t max_distance) const;
  const std::map<std::string, CatalogOp>& ops() const { return ops_; }

private:
  std::map<std::string, CatalogOp> ops_;
  std::set<std::string> namespaces_;
  std::vector<FunctionSchema> python_schemas_;  // storage for the schemas of Python defines
};

// "ns::name" of "ns::name.overload".
std::string packet_of(const std::string& qualified);
// The namespace of "ns::name".
std::string namespace_of(const std::string& qualified);

}  // namespace torchabi::schema
