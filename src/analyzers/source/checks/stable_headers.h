// Whether the TU found the stable PyTorch headers it includes. When it
// includes some and found none, every stable name is undeclared for that
// reason alone: source-torch-headers-not-found reports it once, and the
// per-name checks (build-api-not-in-headers) stay silent instead of blaming
// each API on the release.
#pragma once

#include "analyzers/source/front_end.h"

namespace torchabi::source::checks {

inline bool stable_headers_missing(const ParsedTu& tu) {
  bool included = false;
  for (const auto& inc : tu.includes()) {
    if (inc.kind != HeaderKind::Stable) continue;
    if (!inc.resolved.empty()) return false;
    included |= tu.is_project_file(inc.includer);
  }
  return included;
}

}  // namespace torchabi::source::checks
