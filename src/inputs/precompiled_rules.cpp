#include "inputs/precompiled_rules.h"

#include <cstring>

#include "inputs/rules_release.h"

// Defined by the file the precompiler writes, which only the torchabi
// executable links; a weak reference is null elsewhere.
extern "C" const torchabi::inputs::precompiled::Rules* torchabi_precompiled_rules() __attribute__((weak));

namespace torchabi::inputs::precompiled {

const Rules* embedded() {
  static const Rules* rules = []() -> const Rules* {
    if (!torchabi_precompiled_rules) return nullptr;
    const Rules* r = torchabi_precompiled_rules();
    // Made from other rules than the ones compiled in (a stale build): unused.
    return r && std::strcmp(r->digest, embedded_rules_release().digest.c_str()) == 0 ? r : nullptr;
  }();
  return rules;
}

}  // namespace torchabi::inputs::precompiled
