// A pre-parsed copy of rules/api/replacements.yaml (and replacements_derived.yaml) kept in lint's cache
// directory. yaml-cpp needs about 40 M instructions for the file, a third of
// lint's fixed cost on a small translation unit; reading the binary copy takes
// well under a million. The copy is keyed by a digest of the YAML text, so an
// edited rules file is parsed (and checked) again.
#pragma once

#include <string>

#include "analyzers/source/replacements.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::source {

// The key of both replacement tables' cache entry: an edit of either changes it.
std::string replacements_digest(const inputs::RulesSource& src);

// Replacements::load, through `cache_dir` when it is not empty. Malformed YAML
// throws InputError as Replacements::load does; a missing, stale, corrupt or
// unwritable cache only costs the parse.
Replacements load_replacements_cached(const inputs::RulesSource& src, const std::string& cache_dir);

// The binary form (exposed for tests): decode returns nullopt on anything
// that is not exactly what encode wrote.
std::string encode_replacements(const Replacements& r, const std::string& yaml_digest);
std::optional<Replacements> decode_replacements(std::string_view bytes, const std::string& yaml_digest);

}  // namespace torchabi::source
