// An extension compiled just in time (cpp_extension.load/load_inline) is
// built by the torch that loads it, each time a new one does: it never meets
// another release, so "TORCH_TARGET_VERSION is not set" tells its author
// nothing to do. The per-file finding stays, as a note that says why.
#include <algorithm>

#include "analyzers/build/configuration_checks.h"
#include "analyzers/build/linted_configurations.h"

namespace torchabi::build {

void keep_targets_of_shipped_libraries(const inputs::ProjectBuild& project, const std::string& platform,
                                       findings::Report& lint) {
  for (auto& f : lint.findings) {
    if (f.rule != "build-target-version-missing" || (f.severity && *f.severity == findings::Severity::Note)) continue;
    const std::string shown = shown_path(f.location.file);
    bool compiled = false, all_at_load = true;
    for (const auto& c : project.configurations) {
      if (c.platform != platform) continue;
      if (std::none_of(c.sources.begin(), c.sources.end(), [&](const auto& s) { return shown_path(s) == shown; })) continue;
      compiled = true;
      all_at_load &= c.built_by_running_torch;
    }
    if (!compiled || !all_at_load) continue;
    f.severity = findings::Severity::Note;
    f.message += " (it is compiled by cpp_extension.load() when the module runs, by the torch that loads it: no "
                 "other release loads it)";
  }
}

}  // namespace torchabi::build
