// build-requirement-below-target: the torch requirement the project states
// (setup(install_requires=...), pyproject's [project] dependencies) lets pip
// install the package next to a PyTorch older than its libraries need.
#include "analyzers/build/checks.h"
#include "inputs/project/stated_requirements.h"

namespace torchabi::build {

void check_requirement(const ProjectView& view, findings::Report& report) {
  for (const auto& r : view.project->requirements) {
    const auto lowest = inputs::lowest_torch_allowed(r.text);
    if (!lowest) continue;
    const LintedConfiguration* worst = nullptr;
    TorchVersion need;
    for (const auto& lc : view.linted) {
      if (!lc.stable()) continue;
      // Compiled by cpp_extension.load() with the torch that loads it: what
      // its untargeted objects import, that torch has.
      if (lc.config->built_by_running_torch && !lc.untargeted.empty()) continue;
      // Untargeted objects need what the lint predicted; targeted ones their target.
      std::optional<TorchVersion> n = lc.untargeted.empty() ? lc.target : lc.floor;
      if (lc.target && lc.floor && !lc.untargeted.empty() && *lc.target > *lc.floor) n = lc.target;
      if (n && *n > *lowest && (!worst || *n > need)) worst = &lc, need = *n;
    }
    if (!worst) continue;
    findings::Finding f;
    f.rule = "build-requirement-below-target";
    f.severity = findings::Severity::Error;
    f.location.file = shown_path(r.file);
    f.location.line = static_cast<uint32_t>(r.line);
    f.location.symbol = "torch";
    f.message = "the project requires '" + r.text + "' but " + worst->config->label() + " needs PyTorch " + need.str() +
                (worst->untargeted.empty() ? " (its TORCH_TARGET_VERSION)" : " (what its objects will import)") +
                ": pip installs it next to PyTorch " + lowest->str() + ", where it fails to load";
    f.help = "Require torch>=" + need.str() + ", or lower TORCH_TARGET_VERSION to " + lowest->str() +
             " if the code allows it.";
    report.findings.push_back(std::move(f));
  }
}

}  // namespace torchabi::build
