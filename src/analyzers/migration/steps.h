// The incremental plan: steps a maintainer lands one pull request at a time,
// each of which still builds and loads.
//
// Files move together (one step) when one cannot change without the other:
//  - a header with work left and the project files that include it
//    (work_order.h: its declarations change type);
//  - a helper whose signature names a legacy type (at::Tensor), defined in
//    one file and called from another (coupling_facts.h).
// A kernel defined in one file and registered in another's TORCH_LIBRARY_IMPL
// block does not join that file: its step also moves the one m.impl line into
// a STABLE_TORCH_LIBRARY_IMPL block of the same namespace and dispatch key
// next to the legacy block (a stable impl registers for an op a legacy
// TORCH_LIBRARY defines, and each op has one kernel per key), and the
// registration file's own step comes after it. Likewise a function bound by a
// PYBIND11_MODULE: the module's step comes last (or the module is kept as a
// separate non-stable extension), and a library's TORCH_LIBRARY defs step
// comes after the steps of its impls: the defs may stay legacy.
// scripts/against-torch/mixed_registrations.sh checks these facts against
// real PyTorch.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzers/migration/coupling_facts.h"
#include "analyzers/migration/include_graph.h"
#include "analyzers/migration/plan.h"
#include "analyzers/migration/registration_scan.h"

namespace torchabi::migration {

struct StepInputs {
  std::vector<ApiUse> uses;                          // the plan's uses (any path spelling)
  IncludeGraph includes;                             // normal paths
  CouplingFacts coupling;                            // normal paths
  std::map<std::string, std::vector<CodeBlock>> blocks;  // normal path -> its blocks
  std::map<std::string, std::string> display;        // normal path -> the name users know it by
};

struct StepPlan {
  std::vector<PlanStep> steps;  // in landing order
  std::vector<LibraryPlan> libraries;
};

StepPlan plan_steps(const StepInputs& in);

// "s-" and 8 hex digits of a hash of the sorted file names: the same id for
// the same files in every run, whatever the order of the steps.
std::string step_id(std::vector<std::string> files);

}  // namespace torchabi::migration
