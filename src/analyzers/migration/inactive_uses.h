// Uses lint found in #if branches its configuration does not compile
// (source-inactive-branch) as migration work: always manual. --fix never
// edits such code (nothing can check that a rewrite of it compiles), and they
// do not hold back the rewrites of the file's active code.
#pragma once

#include <vector>

#include "analyzers/migration/plan.h"
#include "analyzers/source/replacements.h"
#include "findings/finding.h"

namespace torchabi::migration {

// One manual ApiUse per source-inactive-branch finding (warnings and above),
// with the replacement the same API has in active code.
std::vector<ApiUse> uses_in_inactive_branches(const findings::Report& report, const source::Replacements& replacements);

}  // namespace torchabi::migration
