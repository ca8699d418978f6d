// build-requirement-below-jit-floor: a library cpp_extension.load() compiles
// when its module runs is built by whatever torch the user has, and the
// stated requirement (pyproject's `torch>=`, install_requires,
// requirements.txt) decides which torch that may be. Code that calls an API
// the stable headers declare only from a newer release (torch::stable::reshape,
// contiguous: 2.10) does not compile against an older one, so the
// requirement promises a build that fails on the user's machine. What the
// untargeted objects import is not held against it (requirement_check.cpp):
// the torch that compiles them has it; what the code calls is.
#include <algorithm>

#include "analyzers/build/checks.h"
#include "inputs/project/stated_requirements.h"

namespace torchabi::build {

void check_jit_requirement(const ProjectView& view, findings::Report& report) {
  for (const auto& r : view.project->requirements) {
    const auto lowest = inputs::lowest_torch_allowed(r.text);
    if (!lowest) continue;
    const LintedConfiguration* worst = nullptr;
    for (const auto& lc : view.linted) {
      // Targeted ones are held to their target by check_requirement.
      if (!lc.stable() || !lc.config->built_by_running_torch || lc.untargeted.empty()) continue;
      if (!lc.code_floor || lc.code_floor_set_by.empty() || !(*lc.code_floor > *lowest)) continue;
      if (!worst || *lc.code_floor > *worst->code_floor) worst = &lc;
    }
    if (!worst) continue;
    const TorchVersion need = *worst->code_floor;
    std::string apis;
    for (const auto& a : worst->code_floor_set_by) apis += (apis.empty() ? "" : ", ") + a;
    findings::Finding f;
    f.rule = "build-requirement-below-jit-floor";
    f.severity = findings::Severity::Warning;
    f.location.file = shown_path(r.file);
    f.location.line = static_cast<uint32_t>(r.line);
    f.location.symbol = "torch";
    f.message = "the project requires '" + r.text + "' but " + worst->config->label() +
                ", compiled by cpp_extension.load() with the torch the user has, calls " + apis +
                " (PyTorch " + need.str() + " on): against PyTorch " + lowest->str() +
                ", which the requirement allows, it does not compile";
    f.notes.push_back(worst->config->label() + ": " + worst->config->method);
    f.help = "Require torch>=" + need.str() + ", or keep to the stable APIs of PyTorch " + lowest->str() +
             " in the extension's sources.";
    report.findings.push_back(std::move(f));
  }
}

}  // namespace torchabi::build
