#include "analyzers/binary/symbol_classifier.h"

#include <algorithm>
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
    : catalog_(catalog) {
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  for (const auto& r : roots) needles_.push_back(std::to_string(r.size()) + r);
}

SymbolClassifier SymbolClassifier::from_rules(const inputs::ApiCatalog& catalog, const inputs::RulesSource& rules) {
  const std::string rel = "api/namespaces.yaml";
  std::vector<std::string> roots;
  try {
    YAML::Node ns = YAML::Load(rules.require(rel));
    for (const char* group : {"stable", "unstable"})
      for (const auto& e : ns[group]) {
        auto parts = inputs::split_qualified(e["name"].as<std::string>());
        if (!parts.empty()) roots.emplace_back(parts.front());
      }
  } catch (const YAML::Exception& e) {
    throw InputError(rules.describe(), "malformed " + rel + ": " + e.what());
  }
  return SymbolClassifier(catalog, std::move(roots));
}

bool SymbolClassifier::may_be_in_known_namespace(std::string_view mangled) const {
  return std::any_of(needles_.begin(), needles_.end(),
                     [&](const std::string& n) { return mangled.find(n) != std::string_view::npos; });
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
