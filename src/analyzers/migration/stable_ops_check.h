// The --fix rewrite for an ATen call with no torch::stable function
// (`torch::sigmoid(x)`, `x.mm(w)`, `a * b`, `d *= s`): a call of the typed
// helper stable_ops::<op> that the fix session writes into the project's
// stable_ops.h (stable_ops/stable_ops.h). Reported at the place and under the
// API name lint uses, with a message of its own, so that the migration adapter
// keeps this finding's fix-it; the message carries the helper's key.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace torchabi::migration {

class AtenFallback;
namespace stable_ops {
class Generator;
}

inline constexpr std::string_view kStableOpsCall = "calls an ATen operator torch::stable has no function for, through stable_ops.h: ";

// The helper key ("mul.Tensor") of a finding this check reported; nullopt for any other finding.
std::optional<std::string> stable_ops_key(std::string_view message);

// Adds the check to every lint run in this process (call before run_lint).
void register_stable_ops_check(std::shared_ptr<const stable_ops::Generator> generator,
                               std::shared_ptr<const AtenFallback> aten);

}  // namespace torchabi::migration
