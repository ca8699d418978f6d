// build-extension-without-target: a library whose stable sources no compiler
// builds with TORCH_TARGET_VERSION. Reported once, at the line that declares
// it, in place of one build-target-version-missing per file.
#include <algorithm>
#include <map>

#include "analyzers/build/checks.h"

namespace torchabi::build {

void check_target_missing(const ProjectView& view, findings::Report& report) {
  // One library per unit and backend (kernel-builder builds one per backend).
  std::map<std::pair<std::string, std::string>, std::vector<const LintedConfiguration*>> libraries;
  std::map<std::string, TorchVersion> targeted;  // other libraries' targets, for the message
  for (const auto& lc : view.linted) {
    if (!lc.stable()) continue;
    libraries[{lc.config->unit, lc.config->backend}].push_back(&lc);
    if (lc.target) targeted.emplace(lc.config->unit, *lc.target);
  }
  for (const auto& [key, configs] : libraries) {
    bool any_target = false;
    std::optional<TorchVersion> floor, code_floor;
    std::vector<std::string> files;
    std::string compilers;
    for (const auto* lc : configs) {
      any_target |= lc->states_target();
      if (lc->floor && (!floor || *lc->floor > *floor)) floor = lc->floor;
      if (lc->code_floor && (!code_floor || *lc->code_floor > *code_floor)) code_floor = lc->code_floor;
      files.insert(files.end(), lc->stable_files.begin(), lc->stable_files.end());
      compilers += (compilers.empty() ? "" : " and ") + lc->config->compiler;
    }
    if (any_target) continue;
    // Built by the torch that loads it (cpp_extension.load): no other
    // release ever loads it, so there is nothing to target.
    if (std::all_of(configs.begin(), configs.end(), [](const LintedConfiguration* lc) { return lc->config->built_by_running_torch; }))
      continue;
    // No file asks for a target (none imports a shim): nothing to say.
    std::vector<findings::Finding> per_files = take_file_target_findings(report, files);
    if (per_files.empty()) continue;
    const inputs::BuildConfiguration& c = *configs.front()->config;
    findings::Finding f = at_declaration("build-extension-without-target", c);
    f.location.symbol = "TORCH_TARGET_VERSION";
    f.message = c.unit + (c.backend.empty() ? "" : " (" + c.backend + ")") + " compiles " +
                std::to_string(per_files.size()) + " stable source" + (per_files.size() == 1 ? "" : "s") + " with " +
                compilers + " and no TORCH_TARGET_VERSION, so its objects import the newest shims of the torch it "
                "is built with";
    if (floor && code_floor && *floor > *code_floor)
      f.message += ": with the headers linted it will need PyTorch " + floor->str() + ", though its code needs only " +
                   code_floor->str();
    else
      f.message += " (nothing past " + (floor ? floor->str() : std::string("the baseline")) +
                   " with the headers linted; built against a newer torch, it will need that release)";
    for (const auto& [unit, t] : targeted)
      if (unit != c.unit) {
        f.notes.push_back(unit + " of the same project targets " + t.str());
        break;
      }
    for (auto& per_file : per_files) {
      f.notes.push_back(per_file.location.file + ": " + per_file.message);
      for (auto& n : per_file.notes) f.notes.push_back("  " + n);
      if (per_file.severity == findings::Severity::Error) f.severity = findings::Severity::Error;  // a stated promise
    }
    const TorchVersion want = code_floor.value_or(TorchVersion{2, 9, 0});
    f.help = "Add -DTORCH_TARGET_VERSION=" + want.hex() + " (PyTorch " + want.str() +
             ", or the oldest release you support) to every compiler of this extension: " + where_flags_go(c) +
             (configs.size() > 1 || c.compiler == "nvcc" ? " and the other compilers' flags" : "") + ".";
    report.findings.push_back(std::move(f));
  }
}

}  // namespace torchabi::build
