// Aggregates the uses of non-stable APIs (from lint, see lint_adapter.h) into
// the migration plan: per-API groups, blockers, per-file progress, the lowest
// TORCH_TARGET_VERSION, and the order of work.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/migration/blockers.h"
#include "analyzers/migration/include_graph.h"
#include "analyzers/migration/plan.h"
#include "analyzers/migration/steps.h"

namespace torchabi::migration {

struct PlanInputs {
  std::vector<std::string> inputs;    // what the user named
  std::vector<ApiUse> uses;
  size_t files_analysed = 0;
  IncludeGraph includes;              // keys and values are normal_path()s
  CouplingFacts coupling;             // for the steps (steps.h), normal paths
  std::map<std::string, std::vector<CodeBlock>> blocks;  // normal path -> registration and pybind blocks
  TorchVersion baseline;              // the catalog's oldest distinguishable release
  std::optional<TorchVersion> ceiling;  // --target-version: the plan stays at or below it
  std::vector<std::string> notes;
  std::vector<findings::InputFailure> failures;
};

MigrationPlan build_plan(PlanInputs in, const BlockerCatalog& blockers);

}  // namespace torchabi::migration
