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
  bool stable_flags = false;  // its build targets the stable ABI
};

// A compile that defines TORCH_TARGET_VERSION or TORCH_STABLE_ONLY is built
// for the stable ABI whatever its sources include: with 2.14's headers an
// ATen include under TORCH_TARGET_VERSION does not even compile. (A limited
// Python API alone says nothing: legacy extensions without pybind11 use it.)
bool targets_stable_abi(const BuildConfiguration& c) {
  for (size_t i = 0; i < c.arguments.size(); ++i) {
    std::string a = c.arguments[i];
    if ((a == "-D" || a == "--define-macro") && i + 1 < c.arguments.size()) a = "-D" + c.arguments[i + 1];
    for (const char* macro : {"TORCH_TARGET_VERSION", "TORCH_STABLE_ONLY"})
      for (const char* prefix : {"-D", "--define-macro=", "/D"})
        if (a.starts_with(std::string(prefix) + macro) &&
            (a.size() == std::string(prefix).size() + std::string(macro).size() ||
             a[std::string(prefix).size() + std::string(macro).size()] == '='))
          return true;
  }
  return false;
}

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
    for (const auto* c : unit.configurations) unit.stable_flags = unit.stable_flags || detail_legacy_by_design::targets_stable_abi(*c);
    for (const auto* c : unit.configurations)
      for (const auto& s : c->sources) {
        if (!seen.insert(s).second) continue;
        const std::string path = fs::path(s).is_absolute() ? s : (fs::path(c->directory) / s).string();
        const TorchIncludeKind kind = graph.kind(path);
        ++unit.sources;
        // Header-only C++ alone is shared with legacy code (torch_include_kind.h).
        // A source that includes both kinds is a port in progress: stable.
        const bool mixed = kind == TorchIncludeKind::Legacy && graph.mixes_stable_and_legacy(path);
        unit.stable += (kind == TorchIncludeKind::Stable && graph.reaches_stable_api(path)) || mixed;
        unit.legacy += kind == TorchIncludeKind::Legacy && !mixed;
      }
  }
  std::string stable_units;
  for (const auto& [name, unit] : units)
    if (unit.stable || unit.stable_flags) stable_units += (stable_units.empty() ? "" : ", ") + name;
  if (stable_units.empty()) return;  // nothing ported yet: every unit is held to the stable ABI
  for (auto& [name, unit] : units) {
    if (unit.stable || unit.stable_flags || !unit.legacy) continue;
    for (auto* c : unit.configurations) c->stable_expected = false;
    b.facts.emplace_back("legacy by design",
                         name + ": " + std::to_string(unit.legacy) + " of " + std::to_string(unit.sources) +
                             " sources include ATen/c10/torch/extension.h headers and none the stable ABI, while " +
                             stable_units +
                             " uses it: not linted (a wheel that ships it still needs the torch it was built with)");
  }
}

}  // namespace torchabi::inputs
