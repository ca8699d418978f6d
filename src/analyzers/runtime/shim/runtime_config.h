// Settings the driver gives the runtime before it loads an extension.
#pragma once

#include <cstdint>

namespace torchabi::runtime {

struct RuntimeConfig {
  // What aoti_torch_abi_version() reports: the TORCH_ABI_VERSION encoding of
  // the release the runtime behaves as ((major << 56) | (minor << 48)).
  uint64_t abi_version = 0;
};

RuntimeConfig& config();

}  // namespace torchabi::runtime
