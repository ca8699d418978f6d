// The release `audit` and `check` judge libraries against: --target-version,
// else the config's target-version. Both are read the same way, so a hex
// typo is caught wherever it was written, and the error names where it was.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/version.h"
#include "inputs/api_catalog.h"

namespace torchabi::cli {

// `flag`: the --target-version value ("" when not given); `config_path`: the
// --config value ("" to discover one upward from `inputs`). Throws
// InputError naming the flag or the config file.
std::optional<TorchVersion> audit_target_version(const std::string& flag, const std::string& config_path,
                                                 const std::vector<std::string>& inputs,
                                                 const inputs::ApiCatalog& catalog);

}  // namespace torchabi::cli
