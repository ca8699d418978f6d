// The configuration-consistency checks of project mode: after lint has
// analysed every configuration a project's build ships (inputs/project/),
// compare them and report build defects at the build file's line — a stable
// extension without TORCH_TARGET_VERSION, a target that differs or is missing
// between compilers, extensions or backends, a define a called stable API
// needs that a configuration (or platform) lacks, and a stated torch
// requirement below what the library will need.
#pragma once

#include <string>

#include "findings/finding.h"
#include "inputs/project/project_build.h"

namespace torchabi::build {

// Adds the checks' findings to `lint` (the report of the project's
// configurations of `platform`); folds the per-file build-target-version-missing
// findings they restate into the project-level finding.
void check_configurations(const inputs::ProjectBuild& project, const std::string& platform, findings::Report& lint);

// For sources linted without the build's flags (the sweep of a repository
// whose build was not understood): findings that rest on the target, USE_CUDA
// or other flags become notes saying so; the others are kept as they are.
void keep_what_rests_on_known_flags(findings::Report& lint);

// The same for the configurations of `project` whose flags the static
// readers could not fully determine (BuildConfiguration::unresolved): an
// error or a warning rests only on values that were resolved.
void keep_what_rests_on_resolved_flags(const inputs::ProjectBuild& project, const std::string& platform,
                                       findings::Report& lint);

// build-target-version-missing on sources that only cpp_extension.load()
// compiles (BuildConfiguration::built_by_running_torch) becomes a note.
void keep_targets_of_shipped_libraries(const inputs::ProjectBuild& project, const std::string& platform,
                                       findings::Report& lint);

// source-inactive-branch findings in a branch that no configuration of the
// project (any extension, compiler or platform) compiles become notes.
void note_branches_no_configuration_compiles(const inputs::ProjectBuild& project, findings::Report& lint);

}  // namespace torchabi::build
