#include "analyzers/binary/version_floor.h"

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
    set_by.insert(set_by.end(), o.set_by.begin(), o.set_by.end());
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

}  // namespace torchabi::binary
