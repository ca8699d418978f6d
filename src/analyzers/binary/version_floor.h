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

// What else a library's stable shim imports ask of a PyTorch install: a build
// option (the catalog's build_condition, e.g. "USE_CUDA" for the
// aoti_torch_cuda_* shims, which libtorch_cuda defines). A CPU-only PyTorch
// of any release lacks those symbols, so the library would not load there.
struct BuildNeed {
  std::string condition;              // "USE_CUDA", "AT_MKLDNN_ENABLED()"
  std::string library;                // where the symbols live: "libtorch_cuda"
  std::vector<std::string> imports;   // the imports that need it, in import order
};

// One entry per distinct condition, in order of first appearance; empty when
// every import is in every build.
std::vector<BuildNeed> compute_build_needs(const std::vector<ShimImport>& imports);

}  // namespace torchabi::binary
