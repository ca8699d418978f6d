#include "analyzers/binary/symbol_classifier.h"

#include <algorithm>
#include <cctype>
#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::binary {

const char* to_string(SymbolKind k) {
  switch (k) {
    case SymbolKind::StableShim: return "stable-shim";
    case SymbolKind::UnknownShim: return "unknown-shim";
    case SymbolKind::StableCxx: return "stable-c++";
    case SymbolKind::UnstableCxx: return "unstable-c++";
    case SymbolKind::Other: return "other";
  }
  return "other";
}

SymbolClassifier::SymbolClassifier(const inputs::ApiCatalog& catalog, std::vector<std::string> roots)
    : catalog_(catalog), roots_(std::move(roots)) {
  std::sort(roots_.begin(), roots_.end());
  roots_.erase(std::unique(roots_.begin(), roots_.end()), roots_.end());
}

SymbolClassifier SymbolClassifier::from_rules(const inputs::ApiCatalog& catalog, const inputs::RulesSource& rules) {
  const std::string rel = "api/namespaces.yaml";
  std::vector<std::string> roots;
  try {
    YAML::Node ns = YAML::Load(rules.require(rel));
    for (const char* group : {"stable", "unstable"})
      for (const auto& e : ns[group]) {
        const std::string name = e["name"].as<std::string>();  // split_qualified returns views into it
        auto parts = inputs::split_qualified(name);
        if (!parts.empty()) roots.emplace_back(parts.front());
      }
  } catch (const YAML::Exception& e) {
    throw InputError(rules.describe(), "malformed " + rel + ": " + e.what());
  }
  return SymbolClassifier(catalog, std::move(roots));
}

bool SymbolClassifier::may_be_in_known_namespace(std::string_view m) const {
  // One pass over the <source-name>s: a decimal length followed by that many
  // characters. Digits elsewhere (template arguments, discriminators) only
  // make this answer "maybe", which is safe.
  for (size_t i = 0; i < m.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(m[i])) || (i > 0 && std::isdigit(static_cast<unsigned char>(m[i - 1]))))
      continue;
    size_t len = 0, j = i;
    while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j])) && len < 1000) len = len * 10 + size_t(m[j++] - '0');
    if (len == 0 || m.size() - j < len) continue;
    const std::string_view name = m.substr(j, len);
    for (const auto& r : roots_)
      if (r == name) return true;
  }
  return false;
}

SymbolClass SymbolClassifier::classify(std::string_view symbol, bool want_text) {
  SymbolClass c;
  if (!symbol.starts_with("_Z")) {
    if (const auto* fn = catalog_.find_c(symbol); fn && !fn->is_type) {
      c.kind = SymbolKind::StableShim;
      c.function = fn;
    } else if (inputs::ApiCatalog::looks_like_shim(symbol)) {
      c.kind = SymbolKind::UnknownShim;
    }
    return c;
  }
  if (!may_be_in_known_namespace(symbol)) return c;
  SymbolScope scope = demangler_.analyse(symbol, want_text);
  if (!scope.demangled || scope.context.empty()) return c;
  inputs::NamespaceMatch m = catalog_.classify(scope.context);
  if (m.kind == inputs::NamespaceKind::Other) return c;
  c.kind = m.kind == inputs::NamespaceKind::Stable ? SymbolKind::StableCxx : SymbolKind::UnstableCxx;
  c.ns = std::move(m.ns);
  c.context = std::move(scope.context);
  c.demangled = std::move(scope.text);
  return c;
}

}  // namespace torchabi::binary
