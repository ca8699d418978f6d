// The oldest PyTorch release a library can load on, as far as its stable C
// shim imports tell: the newest release that introduced one of them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/binary/library_scan.h"
#include "common/version.h"

namespace torchabi::binary {

struct VersionFloor {
  std::optional<TorchVersion> version;  // unset: no stable shim imports at all
  // Every import is in the catalog's baseline ("<=2.9"): the library needs
  // nothing newer than that, and our data cannot date it more precisely.
  bool baseline = false;
  std::vector<std::string> set_by;  // the imports introduced in `version` (empty when baseline)

  // "2.12", "<=2.9", or "" when unset.
  std::string label() const;
  // Keeps the newer of the two floors; equal floors merge their `set_by`.
  void raise_to(const VersionFloor& other);
};

VersionFloor compute_floor(const std::vector<ShimImport>& imports);

}  // namespace torchabi::binary
