// How `torchabi lint` and `torchabi check` include the registration checks
// without parsing any TU twice: a lint check extracts each TU's registrations
// from the AST lint already has (in lint's child process, cached with its
// results) and hands them back as a subject fact; after the lint run they are
// taken out of the report and checked all together, so a def in one file
// meets its impl in another.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/schema/registrations/registration_checks.h"
#include "findings/finding.h"

namespace torchabi::schema {

// Adds the extraction to every lint run of this process. Call before run_lint.
void register_registration_extraction();

// What the registration checks read besides the TUs: rules/schema/ and the
// project's Python. Preparing it while lint's children parse (the parent is
// idle then) takes a fifth of lint's fixed cost off a small TU.
class RegistrationInputs {
public:
  // Never throws: an error is kept and rethrown by take().
  void prepare(const std::vector<std::string>& project_roots) noexcept;
  bool prepared() const { return env_.has_value() || error_ != nullptr; }
  RegistrationEnv take();

private:
  std::optional<RegistrationEnv> env_;
  std::exception_ptr error_;
};

// Takes the extracted registrations out of `report`'s subjects and appends the
// registration findings (after the project's inline suppressions) and the
// device-backend coverage subjects. Python files under `project_roots` are
// searched for fake classes and fake kernels. `whole_project`: the lint run
// covered every translation unit of the project (a compile database or a
// directory, not FILE...); otherwise cross-file conclusions are notes.
// `inputs`, when given and prepared, is used instead of reading the rules and
// the Python again. Throws InputError when rules/schema/ is malformed.
void add_registration_checks(findings::Report& report, const std::vector<std::string>& project_roots,
                             bool whole_project, RegistrationInputs* inputs = nullptr);

}  // namespace torchabi::schema
