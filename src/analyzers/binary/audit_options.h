// What the user asked the binary audit to check beyond the defaults.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/version.h"

namespace torchabi::inputs {
class TorchInstall;
}

namespace torchabi::binary {

struct AuditOptions {
  // --target-version / target-version in the config: the oldest release the
  // extension promises to load on.
  std::optional<TorchVersion> target;
  // --torch PATH...: PyTorch installs every library is resolved against.
  std::vector<std::string> torch_paths;
  // The installs opened from torch_paths (run_audit opens them; they are read
  // lazily, hence not const). Empty: no --torch.
  std::vector<inputs::TorchInstall*> torches;
  // --env [PYTHON]: audit every distribution of that interpreter's environment.
  std::optional<std::string> env_python;
  // The interpreter whose environment `audit NAME` looks NAME up in.
  std::string python = "python3";
};

}  // namespace torchabi::binary
