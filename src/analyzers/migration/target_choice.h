// The lowest TORCH_TARGET_VERSION a migration can reach, and the spelling
// `--fix` writes so that the code really builds there: a use whose
// replacement has an older stable spelling (rules/api/alternatives.yaml, a
// fix-it's fallback) counts the older release. `--target-version V` is a
// ceiling: the uses that cannot stay at or below V are listed, not counted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/migration/plan.h"
#include "common/version.h"

namespace torchabi::migration {

struct TargetChoice {
  TorchVersion target;
  bool is_baseline = false;              // nothing newer than the baseline is needed
  std::vector<std::string> set_by;       // the replacements that need `target`
  std::vector<std::string> forced_by;    // "api at file:line -> replacement"
  std::vector<std::string> above_ceiling;  // "api at file:line -> replacement needs X"
};

TargetChoice choose_target(const std::vector<ApiUse>& uses, TorchVersion baseline,
                           std::optional<TorchVersion> ceiling = std::nullopt);

// Makes every fix-it one the target can build: a fix whose code needs a newer
// release is swapped for its fallback when that one fits, or withheld (the use
// becomes manual). Returns one line per withheld fix.
std::vector<std::string> fit_fixes_to_target(std::vector<ApiUse>& uses, TorchVersion target);

}  // namespace torchabi::migration
