// The plan's order of work: files grouped so that each group can land as one
// reviewable change. Changing a header's API (at::Tensor -> torch::stable::
// Tensor in a declaration) breaks every file that includes it, so a header
// with work left and its includers form one group; a clean header in between
// passes the dependency through but joins no group.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzers/migration/include_graph.h"
#include "analyzers/migration/plan.h"

namespace torchabi::migration {

// `work`: remaining work per file (normal paths, see include_graph.h). Files
// with no work are not grouped. Groups come quick wins first: groups without
// blockers before groups with them, then smaller before larger. `display`
// maps a normal path to the name the user knows it by (default: itself).
std::vector<WorkGroup> order_work(const std::map<std::string, Counts>& work, const IncludeGraph& graph,
                                  const std::map<std::string, std::string>& display = {});

}  // namespace torchabi::migration
