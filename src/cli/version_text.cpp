#include "cli/version_text.h"

#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "common/input_error.h"
#include "inputs/rules_release.h"
#include "inputs/rules_source.h"

namespace torchabi::cli {

std::string version_text() {
  std::string text = std::string("torchabi ") + TORCHABI_VERSION + "\n";
  text += inputs::rules_release_line(inputs::describe_rules(inputs::RulesSource::current())) + "\n";
  try {
    // Named, not loaded: loading libclang and libLLVM would cost --version
    // (and scripts that call it) ~20 ms and 50 MB.
    text += "libclang: " + source::libclang::describe();
  } catch (const InputError& e) {
    // audit and run work without it; say so instead of failing --version.
    text += "libclang: not loadable (" + e.line() + "); lint, check and migrate need it";
  }
  return text;
}

}  // namespace torchabi::cli
