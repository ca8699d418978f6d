// The one call `torchabi lint` and `torchabi check` need to include the
// registration checks: after run_lint, with the same translation units and
// options. Registrations are read in child processes and cached in the lint
// cache directory under their own keys.
#pragma once

#include <string>
#include <vector>

#include "analyzers/source/lint_engine.h"
#include "analyzers/source/lint_env.h"
#include "findings/finding.h"
#include "inputs/compile_db_args.h"

namespace torchabi::schema {

// Appends the registration findings and device-backend coverage subjects to
// `report`; TUs whose registrations could not be read add a line to
// `warnings`. Throws InputError when rules/schema/ is malformed.
void add_registration_checks(const std::vector<inputs::ClangArgs>& tus, const source::LintEnv& env,
                             const source::LintOptions& options, findings::Report& report,
                             std::vector<std::string>& warnings);

}  // namespace torchabi::schema
