// `x.type()` has no stable spelling of its own (DeprecatedTypeProperties is
// not part of the stable ABI), but what extensions do with it does:
// `x.type().is_cuda()` is the stable tensor's `x.is_cuda()`, and
// `AT_DISPATCH_FLOATING_TYPES(x.type(), ...)` dispatches on
// `x.scalar_type()`. Both references of such a call (the `type` and the
// property) are reported with the one edit, so neither is left behind.
// The mapping is data: rules/api/stable_ops.yaml, type_properties.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::migration {

inline constexpr std::string_view kLegacyTypeCall = "uses the deprecated tensor type object: ";

struct LegacyTypeRules {
  std::map<std::string, std::string> properties;  // DeprecatedTypeProperties member -> stable Tensor method
  std::string dispatch_argument;                  // what `x.type()` in AT_DISPATCH_*'s first argument becomes
  static LegacyTypeRules load(const inputs::RulesSource& rules);
};

// Adds the check to every lint run in this process (call before run_lint).
void register_legacy_type_check(LegacyTypeRules rules);

}  // namespace torchabi::migration
