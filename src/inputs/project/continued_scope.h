// Which targets a prerequisite the configure continued past can change
// (environment/cmake_prerequisites.h). An imported target never defined
// changes the flags of the target that links it; a NOTFOUND value, those of
// the target that uses it; a package not found, those of the targets that
// link its X:: targets or use its X_* values. A project's own
// message(FATAL_ERROR) may skip anything after it, and a package none of
// whose names a target is seen to use may have set variables any target
// reads: those change every target. Marking only what can change keeps
// the findings of the other targets what they are: facts.
#pragma once

#include <string>
#include <vector>

#include "inputs/project/environment/cmake_prerequisites.h"

namespace torchabi::inputs {

// The entries of `continued` that can change the flags of CMake target
// `target` (a configuration's unit without its "target " prefix).
std::vector<const ContinuedPast*> continued_affecting(const std::vector<ContinuedPast>& continued,
                                                      const std::string& target);

}  // namespace torchabi::inputs
