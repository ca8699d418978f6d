// The stable APIs torchabi knows, with the release that introduced each:
// the C shim functions (rules/api/stable_c_functions.tsv via ApiCatalog) and
// the C++ wrappers and macros (rules/api/stable_cxx_apis.tsv), optionally
// overlaid with what `rules import` read from the user's own torch headers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/version.h"

namespace torchabi::inputs {
class ApiCatalog;
class RulesSource;
}  // namespace torchabi::inputs

namespace torchabi::source {

struct StableApi {
  std::string name;         // qualified C++ name, C function name, or macro name
  TorchVersion since;
  bool baseline = false;    // "<=2.9": nothing newer than the catalog baseline
  std::string kind;         // function, type, method, macro, ...
  std::string header;       // include-relative, "-" when unknown

  std::string since_label() const { return baseline ? "<=" + since.str() : since.str(); }
};

class StableApiIndex {
public:
  // Throws InputError when rules/api/stable_cxx_apis.tsv is malformed.
  static StableApiIndex load(const inputs::RulesSource& src, const inputs::ApiCatalog& catalog);

  // Reads a stable_cxx_apis.tsv-format text (also what `rules import` writes).
  void add_cxx_tsv(std::string_view text, const std::string& where, bool override_existing);
  void add(StableApi api, bool override_existing);

  const StableApi* find(std::string_view name) const;
  // By unqualified name among torch::stable / torch::headeronly entries (and
  // C functions): what a compiler error such as "use of undeclared
  // identifier 'reshape'" names. Null when unknown or ambiguous in release.
  const StableApi* find_unqualified(std::string_view name) const;
  const std::vector<StableApi>& all() const { return apis_; }
  TorchVersion baseline() const { return baseline_; }

private:
  std::vector<StableApi> apis_;
  std::unordered_map<std::string, size_t> by_name_;
  std::unordered_map<std::string, std::vector<size_t>> by_last_component_;
  TorchVersion baseline_;
};

// "<=2.9" / "2.10" / "2.10.0" -> (version, baseline?); nullopt if malformed.
std::optional<std::pair<TorchVersion, bool>> parse_since(std::string_view text);

}  // namespace torchabi::source
