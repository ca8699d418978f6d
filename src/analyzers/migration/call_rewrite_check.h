// The call rewrites --fix makes where lint's own fix-its stop (data in
// migration_rewrites.h): lint rewrites `x.op(a, b)` to `op(x, a, b)` only when
// every argument is written, so `x.contiguous()` (a defaulted memory_format)
// got no fix; `x.data_ptr<T>()` has no same-named stable twin; and a legacy
// `m.def(schema, &kernel)` needs its kernel registered separately.
//
// The check reports at the place and under the API name lint uses, so the
// migration adapter merges the two findings and keeps this one's fix-it.
#pragma once

#include <string_view>

#include "analyzers/migration/migration_rewrites.h"

namespace torchabi::migration {

// The message of a def-with-kernel call that is not rewritten mechanically;
// the adapter counts such a call as manual rather than as a follower of the
// TORCH_LIBRARY rename.
inline constexpr std::string_view kDroppedCall = "registers what a stable library does without: ";
inline constexpr std::string_view kDefNeedsHuman = "defines an operator and its kernel in one legacy call: ";

// Adds the check to every lint run in this process (call before run_lint).
void register_call_rewrite_check(const MigrationRewrites& rewrites);

}  // namespace torchabi::migration
