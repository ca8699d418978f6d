// TORCH_TARGET_VERSION as one translation unit sets it: the last -D/-U on the
// command line, overridden by a #define in the project's code. Shared by the
// checks that compare the target with what the code uses or imports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyzers/source/front_end.h"
#include "analyzers/source/lint_env.h"
#include "common/version.h"

namespace torchabi::source {

struct TargetSetting {
  std::string written;  // the value as written
  std::string origin;   // "-DTORCH_TARGET_VERSION=..." or "#define at a.cpp:3"
  Range value_range;    // the #define's value (invalid for flags)
  std::optional<TorchVersion> version;
  std::optional<uint64_t> raw;
  std::string error;    // set when the value does not decode to a release
  std::string text() const;  // "2.10 (0x020a000000000000)"
};

// nullopt: the TU does not set TORCH_TARGET_VERSION (the stable headers then
// compile for the release they come from).
std::optional<TargetSetting> read_target_setting(const ParsedTu& tu, const LintEnv& env);

}  // namespace torchabi::source
