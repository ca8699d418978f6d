// Reads lint's findings as migration work: which legacy API each finding is
// about, its stable replacement and release (rules/api/replacements.yaml),
// whether --fix can rewrite it, and the blocker it hits when nothing stable
// replaces it (rules/api/migration_blockers.yaml).
#pragma once

#include <vector>

#include "analyzers/migration/aten_fallback.h"
#include "analyzers/migration/blockers.h"
#include "analyzers/migration/include_graph.h"
#include "analyzers/migration/migration_rewrites.h"
#include "analyzers/migration/plan.h"
#include "analyzers/source/replacements.h"
#include "findings/finding.h"

namespace torchabi::migration {

// The lint rules whose findings are uses of non-stable APIs.
bool is_migration_rule(const std::string& rule);

// One ApiUse per migration finding of `report` (a use reported twice at one
// place, once with a fix-it, counts once, with the fix-it). A fix-it inside a
// macro definition does not count as fixable (--fix refuses it). A use that follows another
// rewrite (migration_rewrites.h), or that a rewritten macro produced at the
// same place, counts as that rewrite does in its file. What a torch macro the
// rules know expands to, reported at the macro's name (torchCheckFail for a
// TORCH_CHECK inside another macro's argument), is that macro's use, not one of its own.
// With `aten`, a Tensor operator is looked up as the function it calls, and an
// ATen operator with no stable replacement gets the call by name as its
// workaround (aten_fallback.h).
std::vector<ApiUse> uses_from_lint(const findings::Report& report, const source::Replacements& replacements,
                                   const BlockerCatalog& blockers, const MigrationRewrites& rewrites,
                                   const AtenFallback* aten = nullptr);

// `torch::Tensor` is at::Tensor: a member lint can only name by its spelling
// (torch::Tensor::sizes, when the object's type came from a header the parse
// did not find, or in a branch the configuration skips) is looked up as
// at::Tensor's, or at::TensorBase's when only that has an entry. Any other
// name is returned as it is.
std::string tensor_member_name(const std::string& api, const source::Replacements& replacements);

// Fix-its that only compile together with others: a legacy call that keeps
// no fix-it keeps its file's tensor type legacy, a registration that needs a
// person keeps its library block, and a use that follows a rewrite counts as
// that rewrite does. uses_from_lint applies it; call it again after taking
// fix-its away (target_choice.h).
void settle_dependent_fixes(std::vector<ApiUse>& uses, const MigrationRewrites& rewrites);

// An include of a legacy header counts as fixable when every other use in its
// file and in the project files that include it is: --fix then replaces it
// with the stable headers the file needs (fixable-unsafe when one of those
// uses needs --unsafe-fixes: the include goes with it). Otherwise it stays,
// and is manual.
void settle_includes(std::vector<ApiUse>& uses, const IncludeGraph& graph);

}  // namespace torchabi::migration
