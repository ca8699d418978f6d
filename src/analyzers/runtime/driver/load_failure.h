// Names the real cause when the extension does not load into the reference
// runtime, from ELF facts first (inputs/load_diagnosis.h) and from the
// loader's message only when those explain nothing:
//   runtime-c-runtime-too-old   a GLIBC_/GLIBCXX_/CXXABI_ version this machine's
//                               (or --root's) C/C++ runtime does not define;
//   runtime-missing-library     a library that is not PyTorch's, not found;
//   runtime-unresolved-symbol   an import nothing defines that is not
//                               PyTorch's (the Python C API, another library's);
//   runtime-load-failed         an import of PyTorch's beyond the stable C ABI.
#pragma once

#include <string>
#include <vector>

#include "analyzers/runtime/driver/wire.h"
#include "inputs/rules_source.h"

namespace torchabi::runtime_driver {

// `extension` is its path on this machine; `root` the --root directory or "".
std::vector<ProtoFinding> explain_load_failure(const std::string& extension, const std::string& loader_message,
                                               const std::string& root, const inputs::RulesSource& rules);

// The "undefined symbol: NAME" of a loader message, or "".
std::string undefined_symbol_of(const std::string& loader_message);

}  // namespace torchabi::runtime_driver
