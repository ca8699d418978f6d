// `torch::empty(sizes, x.options())` makes a tensor like `x`: same dtype,
// layout and device. The stable API has no TensorOptions, but it has the
// factories of another tensor, `torch::stable::new_empty(x, sizes)` (and
// new_zeros), which keep exactly those; `x.options().dtype(d)` passes `d`.
// The factory, the `options()` and the `dtype()` references of such a call
// are reported with the one edit, so none of them is left behind. The
// factories and their stable twins are data: rules/api/migration_rewrites.yaml,
// options_factories.
#pragma once

#include <string_view>
#include <vector>

#include "analyzers/migration/migration_rewrites.h"

namespace torchabi::migration {

inline constexpr std::string_view kOptionsFactory = "makes a tensor with another tensor's options: ";

// Adds the check to every lint run in this process (call before run_lint).
void register_options_factory_check(std::vector<OptionsFactory> rules);

}  // namespace torchabi::migration
