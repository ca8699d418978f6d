// What `torchabi run` says about the stable C functions an extension looks up
// by name at run time (TORCH_DYNAMIC_VERSION_CALL) instead of importing them:
// the lookups observed during its calls (lookup_recorder.h) and, read
// statically, the catalog names its read-only data spells without importing
// them (a lookup the calls did not reach, e.g. because the macro checks
// aoti_torch_abi_version() first and the emulated release is too old).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzers/runtime/driver/lookup_recorder.h"
#include "common/version.h"
#include "inputs/api_catalog.h"

namespace torchabi::runtime_driver {

// Stable C functions named by a whole string in the extension's .rodata that
// it does not import. Throws InputError when `path` is not a readable ELF file.
std::vector<std::string> functions_named_in_strings(const std::string& path, const std::vector<std::string>& imports,
                                                    const inputs::ApiCatalog& catalog);

// One fact per stable C function: key "looked up by name NAME (SINCE)",
// value "present in the emulated 2.14" or "absent in 2.12: the extension
// takes its fallback" (and whether the calls reached the lookup).
std::vector<std::pair<std::string, std::string>> name_lookup_facts(const std::vector<NameLookup>& observed,
                                                                   const std::vector<std::string>& named,
                                                                   const inputs::ApiCatalog& catalog,
                                                                   const TorchVersion& release);

}  // namespace torchabi::runtime_driver
