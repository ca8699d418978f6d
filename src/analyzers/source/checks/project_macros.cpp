#include "analyzers/source/checks/project_macros.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace torchabi::source::checks {

std::vector<std::pair<uint32_t, uint32_t>> directive_spans(std::string_view text) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  size_t line = 0;
  while (line < text.size()) {
    size_t p = line;
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    size_t end = line;
    // The line's end, following backslash continuations.
    for (;;) {
      end = text.find('\n', end);
      if (end == std::string_view::npos) {
        end = text.size();
        break;
      }
      size_t b = end;
      if (b > 0 && text[b - 1] == '\r') --b;
      if (b == 0 || text[b - 1] != '\\') break;
      ++end;
    }
    if (p < text.size() && text[p] == '#') out.emplace_back(static_cast<uint32_t>(p), static_cast<uint32_t>(end));
    line = end + 1;
  }
  return out;
}

bool in_spans(const std::vector<std::pair<uint32_t, uint32_t>>& spans, uint32_t offset) {
  auto it = std::upper_bound(spans.begin(), spans.end(), std::make_pair(offset, UINT32_MAX));
  return it != spans.begin() && offset < std::prev(it)->second;
}

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
