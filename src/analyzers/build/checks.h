// The configuration checks, one per file; configuration_checks.cpp runs them in order.
#pragma once

#include "analyzers/build/linted_configurations.h"

namespace torchabi::build {

void check_target_missing(const ProjectView& view, findings::Report& report);
void check_target_mismatch(const ProjectView& view, findings::Report& report);
void check_define_missing(const ProjectView& view, findings::Report& report);
void check_requirement(const ProjectView& view, findings::Report& report);
void check_jit_requirement(const ProjectView& view, findings::Report& report);

// Removes the per-file build-target-version-missing findings of `files` and
// returns them (the project-level finding restates them at the build file).
std::vector<findings::Finding> take_file_target_findings(findings::Report& report, const std::vector<std::string>& files);

}  // namespace torchabi::build
