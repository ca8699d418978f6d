// The version macros of PyTorch's stable headers and the release whose
// headers first define each (rules/api/version_macros.tsv, derived by
// scripts/version-macros.py). A condition written for a newer release reads
// them as 0 when compiled against an older release's headers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::source {

struct VersionMacro {
  std::string name;
  std::optional<TorchVersion> since;  // nullopt: defined at the stable ABI baseline
  std::string header;                 // include-relative header defining it
  // The value when it names a release (TORCH_VERSION_2_10_0); nullopt when
  // it depends on the build (TORCH_FEATURE_VERSION, TORCH_ABI_VERSION).
  std::optional<uint64_t> release_value;
};

class VersionMacros {
public:
  // Throws InputError naming the file when a row is malformed.
  static VersionMacros load(const inputs::RulesSource& rules);
  static VersionMacros parse(std::string_view tsv, const std::string& origin);

  const VersionMacro* find(std::string_view name) const;
  // Whether the headers of `release` define the macro (false for unknown names).
  bool defined_at(std::string_view name, TorchVersion release) const;
  const std::map<std::string, VersionMacro, std::less<>>& all() const { return macros_; }

private:
  std::map<std::string, VersionMacro, std::less<>> macros_;
};

}  // namespace torchabi::source
