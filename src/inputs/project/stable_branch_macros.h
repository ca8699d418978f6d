// Ports that keep both APIs put their stable code under a switch of their
// own (`#ifdef USE_TORCH_STABLE_API` around the stable includes, the classic
// ones in `#else`) and turn it on in the build. When no configuration that
// compiles a source defines that switch, the build compiles the classic
// branch, and every classic use in it is a finding; the user needs to know
// that the stable branch exists and was not the one analysed.
#pragma once

#include <string>

#include "inputs/project/project_build.h"

namespace torchabi::inputs {

// Adds a note to `b` for each source of a `platform` configuration (or a
// header it includes with quotes, beside it) that includes stable headers
// (torch/csrc/stable, torch/headeronly, the C shims) only under a macro of
// its own that none of those configurations defines on the command line
// and no scanned file #defines (rule project-stable-code-switched-off).
void note_stable_code_behind_undefined_macros(ProjectBuild& b, const std::string& platform);

}  // namespace torchabi::inputs
