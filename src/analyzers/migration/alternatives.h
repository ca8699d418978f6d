// Older stable spellings that stand in for newer replacements
// (rules/api/alternatives.yaml): what makes the plan's lowest target the
// lowest one, new_empty (2.9) rather than empty (2.10).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzers/migration/plan.h"
#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::migration {

struct Alternative {
  std::string for_api;  // the newer replacement
  std::string use;      // the older stable API
  TorchVersion since;
  std::string how;
};

class Alternatives {
public:
  // Throws InputError naming the file when it is malformed.
  static Alternatives load(const inputs::RulesSource& src);
  static Alternatives parse(std::string_view yaml, const std::string& where);
  const Alternative* find(std::string_view replacement) const;
  const std::vector<Alternative>& entries() const { return entries_; }

private:
  std::vector<Alternative> entries_;
};

// Gives each use whose replacement has an older alternative that alternative
// (ApiUse::alternative*), and says in its note what the newer one costs.
void apply_alternatives(std::vector<ApiUse>& uses, const Alternatives& alternatives);

}  // namespace torchabi::migration
