// One report from several build configurations, and from several
// translation units that see a file differently.
//
// source-inactive-branch reports code a configuration does not compile; when
// another configuration (lint --also-define NAME) or another translation unit
// does compile it, the AST checks report the same use exactly, and that
// finding is the one kept.
#pragma once

#include <string>
#include <vector>

#include "findings/finding.h"
#include "inputs/compile_db_args.h"

namespace torchabi::source {

// The translation units again, with -DNAME[=VALUE] added after their own
// flags. Throws InputError when NAME is not an identifier.
std::vector<inputs::ClangArgs> with_define(const std::vector<inputs::ClangArgs>& tus, const std::string& define);

// Adds the findings of `extra` (the same files linted with `label`, e.g.
// "-DUSE_ROCM") that `into` does not have, each with a note naming the
// configuration; a translation unit's verdict becomes UNSTABLE when it is in
// either. The extra run's other subject data is dropped (registrations are
// checked once, on the default configuration).
void merge_configuration(findings::Report& into, findings::Report extra, const std::string& label);

// Drops each source-inactive-branch finding that an AST finding reports at
// the same place (same line and symbol, or same column).
void drop_inactive_duplicates(findings::Report& report);

}  // namespace torchabi::source
