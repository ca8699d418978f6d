// rules/api/replacements.yaml: each legacy PyTorch API with its stable
// replacement, the release the replacement needs and whether rewriting is
// mechanical. Shared by lint (suggestions, fix-its) and migrate (rewrites).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::source {

enum class ReplacementFix { Safe, Unsafe, No };
// CallTemplate: a macro call rewritten whole from its arguments, "$1".."$9"
// standing for them (AT_DISPATCH_FLOATING_TYPES(t, n, f) ->
// THO_DISPATCH_V2(t, n, AT_WRAP(f), AT_EXPAND(AT_FLOATING_TYPES))).
enum class ReplacementStyle { Rename, MethodToFunction, SameMethod, PrefixArgs, CallTemplate };

struct Replacement {
  std::vector<std::string> legacy;      // names or "prefix*" patterns
  std::string kind;                     // type, function, method, variable, enumerator, namespace, macro, header
  std::optional<std::string> replacement;  // null: no stable replacement
  std::string header;                   // where the replacement lives
  std::optional<TorchVersion> since;    // release the replacement needs
  ReplacementFix fix = ReplacementFix::No;
  ReplacementStyle style = ReplacementStyle::Rename;
  std::string note;
};

// The entry for one legacy name, with `replacement` already expanded for it.
struct ReplacementMatch {
  const Replacement* entry = nullptr;
  std::optional<std::string> replacement;
};

class Replacements {
public:
  // The hand-written table, then the one derived from PyTorch's files
  // (scripts/build-replacements.py). Exact names are looked up in that order,
  // so a hand-written entry wins over a derived one for the same API.
  static constexpr const char* kHandWritten = "api/replacements.yaml";
  static constexpr const char* kDerived = "api/replacements_derived.yaml";

  // Throws InputError naming the file when either is malformed.
  static Replacements load(const inputs::RulesSource& src);
  static Replacements parse(std::string_view yaml, const std::string& where);
  // Entries already validated by parse (the pre-parsed cache).
  static Replacements from_entries(std::vector<Replacement> entries) {
    Replacements r;
    r.entries_ = std::move(entries);
    return r;
  }

  // `kind` "macro" or "header" looks among macros or headers; empty looks
  // among C++ names. Exact names win over patterns, longer patterns over shorter.
  std::optional<ReplacementMatch> find(std::string_view legacy_name, std::string_view kind = {}) const;
  const std::vector<Replacement>& entries() const { return entries_; }

private:
  std::vector<Replacement> entries_;
};

const char* to_string(ReplacementFix f);

}  // namespace torchabi::source
