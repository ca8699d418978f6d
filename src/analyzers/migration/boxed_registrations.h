// The registration half of --fix: `m.impl("op", &kernel)` becomes
// `m.impl("op", TORCH_BOX(&kernel))`, so that together with lint's
// TORCH_LIBRARY_IMPL -> STABLE_TORCH_LIBRARY_IMPL rewrite the block registers
// boxed kernels. Lint reports the call (torch::Library::impl is unstable API)
// but has no fix for it: the rewrite wraps an argument rather than renaming a
// name. The rules are data: rules/api/migration_rewrites.yaml.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::migration {

struct BoxedRegistration {
  std::string method;  // "torch::Library::impl"
  std::string wrap;    // "TORCH_BOX"
  std::string header;
  std::optional<TorchVersion> since;
  bool safe = false;
  std::string note;
};

std::vector<BoxedRegistration> load_boxed_registrations(const inputs::RulesSource& src);
std::vector<BoxedRegistration> parse_boxed_registrations(std::string_view yaml, const std::string& where);

// Adds to every lint run in this process a check that reports each such call
// (rule source-unstable-api, like lint's own finding for it) with the fix-it
// that wraps its kernel argument.
void register_boxed_registration_check(std::vector<BoxedRegistration> rules);

// The entry for a legacy method name, if any.
const BoxedRegistration* find_boxed_registration(const std::vector<BoxedRegistration>& rules, std::string_view method);

}  // namespace torchabi::migration
