#include "analyzers/source/checks/project_macros.h"

#include <algorithm>

namespace torchabi::source::checks {

ProjectMacros::ProjectMacros(CheckContext& ctx) : ctx_(ctx) {
  for (const auto& d : ctx.tu.macro_definitions()) by_name_[d.name].push_back(&d);
}

const MacroDefinition* ProjectMacros::definition_of(const MacroUse& u) const {
  auto it = by_name_.find(u.name);
  if (it == by_name_.end()) return nullptr;
  for (const MacroDefinition* d : it->second)
    if (d->range.file == u.def_file && d->range.line == u.def_line) return d;
  return it->second.size() == 1 ? it->second.front() : nullptr;
}

std::vector<ProjectMacros::Reached> ProjectMacros::torch_macros_reached(const MacroDefinition& d,
                                                                        std::set<const MacroDefinition*>& expanded) {
  std::vector<Reached> out;
  std::vector<const MacroDefinition*> chain;
  walk(d, chain, expanded, out);
  return out;
}

void ProjectMacros::walk(const MacroDefinition& d, std::vector<const MacroDefinition*>& chain,
                         std::set<const MacroDefinition*>& expanded, std::vector<Reached>& out) {
  if (std::find(chain.begin(), chain.end(), &d) != chain.end() || chain.size() > 32) return;  // recursion
  expanded.insert(&d);
  chain.push_back(&d);
  for (const auto& [id, range] : d.body_identifiers) {
    if (id == d.name) continue;  // `#define f f`: not expanded again
    if (auto it = by_name_.find(id); it != by_name_.end()) {
      // A project macro of that name shadows torch's; with several
      // definitions of it, any may be the one in effect.
      for (const MacroDefinition* inner : it->second) walk(*inner, chain, expanded, out);
      continue;
    }
    if (id == "PYBIND11_MODULE" || !ctx_.env.replacements.find(id, "macro")) continue;
    out.push_back({chain, id, range});
  }
  chain.pop_back();
}

}  // namespace torchabi::source::checks
