// The project's registrations, across translation units, by operator: the
// parsed schema of every m.def, every m.impl of each operator, and the
// hand-written boxed kernels by function name. Building it reports the
// problems of single registrations (a schema that does not parse, a name in
// the wrong namespace); the checks then compare registrations with each other.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzers/schema/ast.h"
#include "analyzers/schema/registrations/registration_model.h"

namespace torchabi::schema {

struct DefEntry {
  const TuRegistrations* tu = nullptr;
  const OpDef* def = nullptr;
  const LibraryBlock* block = nullptr;
  FunctionSchema schema;   // empty when has_schema is false
  bool has_schema = true;  // false: m.def("name", &fn) lets PyTorch infer it from fn
  std::string qualified;   // ns::name.overload
};

struct ImplEntry {
  const TuRegistrations* tu = nullptr;
  const OpImpl* impl = nullptr;
  const LibraryBlock* block = nullptr;
  std::string qualified;  // ns::name.overload
};

class RegistrationIndex {
public:
  // Appends schema-parse-error, schema-default-mismatch and
  // schema-namespace-mismatch findings while reading.
  RegistrationIndex(const std::vector<TuRegistrations>& tus, std::vector<findings::Finding>& out);

  const std::vector<DefEntry>& defs() const { return defs_; }
  const std::vector<ImplEntry>& impls() const { return impls_; }
  // First definition of an operator (nullptr when the project has none).
  const DefEntry* def(const std::string& qualified) const;
  // Every impl of an operator.
  std::vector<const ImplEntry*> impls_of(const std::string& qualified) const;
  const BoxedKernelBody* boxed_body(const std::string& function) const;
  // Operators whose def is there but did not parse (already reported):
  // their impls are not reported again as impls without a def.
  bool has_broken_def(const std::string& qualified) const { return broken_defs_.count(qualified) > 0; }
  // Namespaces that have a (STABLE_)TORCH_LIBRARY or _FRAGMENT block here.
  const std::set<std::string>& defined_namespaces() const { return defined_namespaces_; }
  // Every block, once even when a header holding it is in several TUs.
  const std::vector<std::pair<const TuRegistrations*, const LibraryBlock*>>& blocks() const { return blocks_; }

private:
  std::vector<DefEntry> defs_;
  std::vector<ImplEntry> impls_;
  std::multimap<std::string, size_t> defs_by_name_, impls_by_name_;
  std::map<std::string, const BoxedKernelBody*> boxed_;
  std::set<std::string> defined_namespaces_;
  std::set<std::string> broken_defs_;
  std::vector<std::pair<const TuRegistrations*, const LibraryBlock*>> blocks_;
};

// "file:line:col" for de-duplicating what several TUs saw in one header.
std::string location_key(const findings::Location& l);

}  // namespace torchabi::schema
