// `torchabi explain NAME` for a porter: what torchabi knows of one at::, c10::,
// torch:: name, macro, header or C shim function — whether it is stable and
// since which release, its replacement, the blocker or gap that names its
// workaround, or the call by name through the dispatcher that stands in for an
// ATen operator. Everything comes from rules/ (stable_cxx_apis.tsv and the C
// shim table, replacements*.yaml, migration_{blockers,gaps}.yaml, the ATen
// schemas), the same data `migrate` plans with, so the answer is the plan's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/migration/aten_fallback.h"
#include "analyzers/migration/blockers.h"
#include "analyzers/source/replacements.h"
#include "analyzers/source/stable_api_index.h"
#include "inputs/api_catalog.h"

namespace torchabi::migration {

struct ApiFacts {
  std::string name;   // as looked up (torch::Tensor::x is looked up as at::Tensor::x)
  std::string kind;   // "macro", "header" or "" (a C++ name or C function)
  inputs::NamespaceMatch ns;                    // what its namespaces say
  std::optional<source::StableApi> stable;      // a stable API itself
  std::optional<source::ReplacementMatch> replacement;
  const Blocker* blocker = nullptr;             // a blocker or gap with its workaround
  std::optional<DispatcherCall> dispatcher;     // an ATen operator called by name
};

class ApiLookup {
public:
  // Throws InputError naming the rules file when one is malformed.
  static ApiLookup load(const inputs::RulesSource& rules, const inputs::ApiCatalog& catalog);

  // Nullopt when no rule names it: not a stable API, no replacement, no
  // workaround, no ATen operator.
  std::optional<ApiFacts> explain(std::string_view name) const;
  // Up to `n` known names closest to `name` (edit distance, then a shared
  // last component), for the error of an unknown one.
  std::vector<std::string> closest(std::string_view name, size_t n = 3) const;

private:
  ApiLookup(const inputs::ApiCatalog& catalog, source::StableApiIndex stable, source::Replacements replacements,
            BlockerCatalog blockers, AtenFallback aten, std::vector<std::string> names)
      : catalog_(&catalog), stable_(std::move(stable)), replacements_(std::move(replacements)),
        blockers_(std::move(blockers)), aten_(std::move(aten)), names_(std::move(names)) {}

  const inputs::ApiCatalog* catalog_;
  source::StableApiIndex stable_;
  source::Replacements replacements_;
  BlockerCatalog blockers_;
  AtenFallback aten_;
  std::vector<std::string> names_;  // every name it knows, for closest()
};

// The text `torchabi explain NAME` prints for one API.
std::string describe(const ApiFacts& facts);

}  // namespace torchabi::migration
