// Shared by the registration check families (registration_checks.cpp is the
// entry point): the project index, the rules, and where findings go.
#pragma once

#include <string>

#include "analyzers/schema/registrations/registration_checks.h"
#include "analyzers/schema/registrations/registration_index.h"

namespace torchabi::schema {

struct RegistrationContext {
  const RegistrationIndex& index;
  const RegistrationEnv& env;
  RegistrationOutcome& out;
  // False when only some of the project's files were linted (FILE... rather
  // than a compile database or a directory): checks that conclude from
  // something NOT seen report notes instead of errors.
  bool whole_project = true;

  void report(findings::Finding f) { out.findings.push_back(std::move(f)); }
};

// Where argument `i` (or return `i`) of a def's schema is written.
findings::Location schema_part_location(const DefEntry& def, size_t i, bool is_return);

// The schema an impl implements: the project's def, or for aten the op's
// schema in rules/schema/aten_ops.tsv. nullptr when neither is known.
const FunctionSchema* schema_of(const RegistrationContext& ctx, const ImplEntry& impl, FunctionSchema& storage);

std::string describe_type(const Type& t);

// On a partial view (FILE... rather than the whole project) what was not
// seen may be in a file that was not linted: the finding becomes a note
// saying so (`missing`: "def", "impl", ...).
void partial_view(const RegistrationContext& ctx, findings::Finding& f, const char* missing);
// Whether some registration of namespace `ns` could not be read: of its defs
// (a Def or Fragment block; `defs`) or of its impls (any block).
bool unread_in(const RegistrationContext& ctx, const std::string& ns, bool defs);
// What the checks could not read may be what they did not find: the finding
// becomes a note saying so (`what`: "m.def", "m.impl").
void unread(findings::Finding& f, const std::string& ns, const char* what);

void check_schema_rules(RegistrationContext& ctx);
void check_tensorless_kernels(RegistrationContext& ctx);
void check_kernels(RegistrationContext& ctx);
void check_stable_types(RegistrationContext& ctx);
void check_backends(RegistrationContext& ctx);
void check_torchbind(RegistrationContext& ctx);
// analyzers/schema/compile_readiness/: fakes, autograd, mutation and aliasing.
void check_compile_readiness(RegistrationContext& ctx);

}  // namespace torchabi::schema
