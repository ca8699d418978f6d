// What the user asked the binary audit to check beyond the defaults.
#pragma once

#include <optional>

#include "common/version.h"

namespace torchabi::binary {

struct AuditOptions {
  // --target-version / target-version in the config: the oldest release the
  // extension promises to load on.
  std::optional<TorchVersion> target;
};

}  // namespace torchabi::binary
