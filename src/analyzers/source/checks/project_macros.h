// The project's own #defines, and which of PyTorch's unstable macros (those
// with an entry in rules/api/replacements.yaml) each one reaches, directly or
// through other project macros. Shared by source-unstable-macro, which
// reports them where the project macro is expanded, and source-unstable-api,
// which leaves those expansions to it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/source/tu_check.h"

namespace torchabi::source::checks {

// The project's #defines by name, and which torch macros each reaches,
// directly or through other project macros.
// The [begin, end) offsets of the preprocessor directives of `text` (a line
// whose first non-blank character is '#', with its backslash continuations):
// a name in `#define NAME`, `#undef NAME`, `#ifdef NAME` or a #define's body
// is not a use of NAME where it is written.
std::vector<std::pair<uint32_t, uint32_t>> directive_spans(std::string_view text);
bool in_spans(const std::vector<std::pair<uint32_t, uint32_t>>& spans, uint32_t offset);

class ProjectMacros {
public:
  struct Reached {
    std::vector<const MacroDefinition*> chain;  // outermost first
    std::string torch_macro;
    Range torch_range;  // the torch macro's name in the innermost definition
  };

  explicit ProjectMacros(CheckContext& ctx);

  bool is_project_macro(const std::string& name) const { return by_name_.count(name) != 0; }

  // The definition an expansion used: the one at the expansion's def_line
  // when the name was defined more than once.
  const MacroDefinition* definition_of(const MacroUse& u) const;

  // Torch macros with a replacement entry reached from `d`; every definition
  // on the way is added to `expanded`.
  std::vector<Reached> torch_macros_reached(const MacroDefinition& d, std::set<const MacroDefinition*>& expanded);

private:
  void walk(const MacroDefinition& d, std::vector<const MacroDefinition*>& chain,
            std::set<const MacroDefinition*>& expanded, std::vector<Reached>& out);

  CheckContext& ctx_;
  std::map<std::string, std::vector<const MacroDefinition*>> by_name_;
};

}  // namespace torchabi::source::checks
