// The TU's TORCH_TARGET_VERSION, as the compiler would read it: the last
// -D/-U flag, overridden by a #define in a project file. Shared by the checks
// that compare the code with the release it promises to support.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyzers/source/tu_check.h"
#include "common/version.h"

namespace torchabi::source::checks {

struct TargetSetting {
  std::string written;            // the value as written
  std::string origin;             // "-DTORCH_TARGET_VERSION=..." or "#define at a.cpp:3"
  Range value_range;              // the #define's value (invalid for flags)
  std::optional<TorchVersion> version;
  std::optional<uint64_t> raw;
  std::string error;              // set when the value decodes to no release

  // "2.9 (0x0209000000000000)"; requires `version`.
  std::string text() const { return version->str() + " (" + version->hex() + ")"; }
};

// nullopt when the TU does not set TORCH_TARGET_VERSION.
std::optional<TargetSetting> read_target(CheckContext& ctx);

}  // namespace torchabi::source::checks
