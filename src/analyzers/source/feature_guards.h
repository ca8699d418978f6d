// Which TORCH_FEATURE_VERSION guard a line of a PyTorch header sits under.
// PyTorch declares each stable API added after 2.9 inside
//   #if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 ... #endif
// so the guard around a declaration is the release that introduced it, for
// the exact torch the user builds against.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "common/version.h"

namespace torchabi::source {

class FeatureGuards {
public:
  static FeatureGuards scan(std::string_view header_text);

  // The newest release required by the guards enclosing `line` (1-based);
  // nullopt when no TORCH_FEATURE_VERSION >= guard encloses it.
  std::optional<TorchVersion> required_at(unsigned line) const;

private:
  struct Region {
    unsigned begin = 0, end = 0;  // lines, inclusive
    TorchVersion min;
  };
  std::vector<Region> regions_;
};

}  // namespace torchabi::source
