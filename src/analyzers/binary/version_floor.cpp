#include "analyzers/binary/version_floor.h"

#include <algorithm>

#include "inputs/api_catalog.h"

namespace torchabi::binary {

std::string VersionFloor::label() const {
  if (!version) return {};
  return baseline ? "<=" + version->str() : version->str();
}

void VersionFloor::raise_to(const VersionFloor& o) {
  if (!o.version) return;
  // A dated floor beats a baseline one even when the numbers compare equal.
  const bool newer = !version || *o.version > *version || (*o.version == *version && baseline && !o.baseline);
  if (newer) {
    *this = o;
  } else if (*o.version == *version && baseline == o.baseline) {
    for (const auto& by : o.set_by)  // the slices of a universal binary name the same imports
      if (std::find(set_by.begin(), set_by.end(), by) == set_by.end()) set_by.push_back(by);
  }
}

VersionFloor compute_floor(const std::vector<ShimImport>& imports) {
  VersionFloor f;
  for (const auto& imp : imports) {
    VersionFloor one;
    one.version = imp.function->since;
    one.baseline = imp.function->baseline;
    if (!one.baseline) one.set_by.push_back(imp.symbol);
    f.raise_to(one);
  }
  return f;
}

std::vector<BuildNeed> compute_build_needs(const std::vector<ShimImport>& imports) {
  std::vector<BuildNeed> needs;
  for (const auto& imp : imports) {
    const auto& fn = *imp.function;
    if (fn.build_condition.empty() || fn.build_condition == "-") continue;
    auto it = std::find_if(needs.begin(), needs.end(), [&](const BuildNeed& n) {
      return n.condition == fn.build_condition && n.library == fn.library;
    });
    if (it == needs.end()) it = needs.insert(needs.end(), BuildNeed{fn.build_condition, fn.library, {}});
    it->imports.push_back(imp.symbol);
  }
  return needs;
}

}  // namespace torchabi::binary
