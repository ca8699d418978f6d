// Uses lint found in #if branches its configuration does not compile
// (source-inactive-branch) as migration work: manual (blocked when nothing
// stable replaces the API, with its named workaround). --fix never
// edits such code (nothing can check that a rewrite of it compiles), and they
// do not hold back the rewrites of the file's active code.
#pragma once

#include <vector>

#include "analyzers/migration/blockers.h"
#include "analyzers/migration/migration_rewrites.h"
#include "analyzers/migration/plan.h"
#include "analyzers/source/replacements.h"
#include "findings/finding.h"

namespace torchabi::migration {

// One manual ApiUse per source-inactive-branch finding (warnings and above),
// with the replacement the same API has in active code: its entry, the boxed
// registration of a registration call (`rewrites`), or else its named
// blocker or gap (`blockers`) with the workaround.
std::vector<ApiUse> uses_in_inactive_branches(const findings::Report& report, const source::Replacements& replacements,
                                              const BlockerCatalog* blockers = nullptr,
                                              const MigrationRewrites* rewrites = nullptr);

}  // namespace torchabi::migration
