#include "inputs/project/legacy_by_design.h"

#include <filesystem>
#include <map>
#include <set>

#include "inputs/project/source_sweep.h"
#include "inputs/project/torch_include_kind.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace detail_legacy_by_design {

struct Unit {
  std::vector<BuildConfiguration*> configurations;
  size_t sources = 0, legacy = 0, stable = 0;
};

}  // namespace detail_legacy_by_design

void mark_legacy_by_design(ProjectBuild& b, const std::string& platform) {
  using detail_legacy_by_design::Unit;
  std::map<std::string, Unit> units;
  for (auto& c : b.configurations)
    if (c.platform == platform && c.backend.empty() && c.stable_expected) units[c.unit].configurations.push_back(&c);
  if (units.size() < 2) return;
  const fs::path root = fs::path(b.build_file).parent_path();
  TorchIncludeGraph graph(project_headers(root.string()));
  for (auto& [name, unit] : units) {
    std::set<std::string> seen;
    for (const auto* c : unit.configurations)
      for (const auto& s : c->sources) {
        if (!seen.insert(s).second) continue;
        const std::string path = fs::path(s).is_absolute() ? s : (fs::path(c->directory) / s).string();
        const TorchIncludeKind kind = graph.kind(path);
        ++unit.sources;
        // Header-only C++ alone is shared with legacy code (torch_include_kind.h).
        unit.stable += kind == TorchIncludeKind::Stable && graph.reaches_stable_api(path);
        unit.legacy += kind == TorchIncludeKind::Legacy;
      }
  }
  std::string stable_units;
  for (const auto& [name, unit] : units)
    if (unit.stable) stable_units += (stable_units.empty() ? "" : ", ") + name;
  if (stable_units.empty()) return;  // nothing ported yet: every unit is held to the stable ABI
  for (auto& [name, unit] : units) {
    if (unit.stable || !unit.legacy) continue;
    for (auto* c : unit.configurations) c->stable_expected = false;
    b.facts.emplace_back("legacy by design",
                         name + ": " + std::to_string(unit.legacy) + " of " + std::to_string(unit.sources) +
                             " sources include ATen/c10/torch/extension.h headers and none the stable ABI, while " +
                             stable_units +
                             " uses it: not linted (a wheel that ships it still needs the torch it was built with)");
  }
}

}  // namespace torchabi::inputs
