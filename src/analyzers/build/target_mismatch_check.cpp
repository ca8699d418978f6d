// build-target-version-inconsistent: the configurations of one library (or of
// one project's libraries for one backend) compile their stable code for
// different releases, or some without TORCH_TARGET_VERSION. A compiler
// without it builds objects that call the newest shims of the torch they are
// built with, so the whole library needs that release.
#include <algorithm>
#include <map>

#include "analyzers/build/checks.h"

namespace torchabi::build {

namespace {

std::string name_of(const inputs::BuildConfiguration& c) {
  return c.compiler + (c.backend.empty() ? "" : " (" + c.backend + ")");
}

}  // namespace

void check_target_mismatch(const ProjectView& view, findings::Report& report) {
  std::map<std::pair<std::string, std::string>, std::vector<const LintedConfiguration*>> libraries;
  for (const auto& lc : view.linted)
    if (lc.stable()) libraries[{lc.config->unit, lc.config->backend}].push_back(&lc);

  // Within one library: every compiler must target, and the same release.
  std::map<std::string, std::pair<TorchVersion, const LintedConfiguration*>> library_target;  // backend/unit key
  for (const auto& [key, configs] : libraries) {
    const LintedConfiguration* targeted = nullptr;
    for (const auto* lc : configs)
      if (lc->target && (!targeted || *lc->target > *targeted->target)) targeted = lc;
    if (!targeted) continue;  // none targets: build-extension-without-target
    for (const auto* lc : configs) {
      const inputs::BuildConfiguration& c = *lc->config;
      // Untargeted files that import no shim (header-only C++ alone) load on
      // every release: their build-target-version-missing says when one does.
      std::vector<findings::Finding> per_files = take_file_target_findings(report, lc->untargeted);
      if (!lc->untargeted.empty() && !per_files.empty()) {
        findings::Finding f = at_declaration("build-target-version-inconsistent", c);
        f.severity = findings::Severity::Error;
        f.location.symbol = "TORCH_TARGET_VERSION";
        const TorchVersion t = *targeted->target;
        f.message = c.unit + ": " + name_of(c) + " compiles stable code without TORCH_TARGET_VERSION while " +
                    name_of(*targeted->config) + " targets " + t.str() + ", so its objects call the newest shims of "
                    "the torch they are built with";
        if (lc->floor && *lc->floor > t)
          f.message += ": with the headers linted they need PyTorch " + lc->floor->str() +
                       ", and the library will not load on " + t.str();
        else
          f.message += " (nothing past " + (lc->floor ? lc->floor->str() : t.str()) +
                       " with the headers linted; built against a newer torch, the library will not load on " + t.str() +
                       ")";
        for (const auto& file : lc->untargeted) f.notes.push_back("compiled without a target: " + file);
        for (auto& per_file : per_files)
          for (auto& n : per_file.notes) f.notes.push_back("  " + n);
        f.help = "Add -DTORCH_TARGET_VERSION=" + targeted->target->hex() + " to " + where_flags_go(c) +
                 " too: every compiler of an extension needs the same target.";
        report.findings.push_back(std::move(f));
      } else if (lc->target && *lc->target != *targeted->target) {
        findings::Finding f = at_declaration("build-target-version-inconsistent", c);
        f.location.symbol = "TORCH_TARGET_VERSION";
        f.message = c.unit + ": " + name_of(c) + " targets " + lc->target->str() + " but " +
                    name_of(*targeted->config) + " targets " + targeted->target->str() +
                    ": the library loads only on " + targeted->target->str() + " and newer";
        f.help = "Use one TORCH_TARGET_VERSION for every compiler of the extension (the oldest release you support).";
        report.findings.push_back(std::move(f));
      }
    }
    library_target[key.second + "\n" + key.first] = {*targeted->target, targeted};
  }

  // Across the libraries of one backend: a note, not a warning. Packages
  // commonly import each extension on its own (try/except per feature), so
  // two extensions built for different releases on purpose are a correct
  // build; the note still says which extension decides where all of them load.
  std::map<std::string, std::vector<std::pair<TorchVersion, const LintedConfiguration*>>> by_backend;
  for (const auto& [key, t] : library_target) by_backend[key.substr(0, key.find('\n'))].push_back(t);
  for (const auto& [backend, targets] : by_backend) {
    auto low = std::min_element(targets.begin(), targets.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (const auto& [t, lc] : targets) {
      if (t == low->first) continue;
      findings::Finding f = at_declaration("build-target-version-inconsistent", *lc->config);
      f.severity = findings::Severity::Note;
      f.location.symbol = "TORCH_TARGET_VERSION";
      f.message = lc->config->unit + " targets " + t.str() + " while " + low->second->config->unit + " targets " +
                  low->first.str() + ": on releases before " + t.str() + " it does not load (fine when the package imports it "
                  "on its own; otherwise the package needs " + t.str() + ")";
      f.help = "Give every extension of the project the same TORCH_TARGET_VERSION, or state " + t.str() +
               " as the project's oldest supported PyTorch.";
      report.findings.push_back(std::move(f));
    }
  }
}

}  // namespace torchabi::build
