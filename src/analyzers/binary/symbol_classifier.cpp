#include "analyzers/binary/symbol_classifier.h"

#include <algorithm>
#include <cctype>

#include "analyzers/binary/msvc_scope.h"
#include "common/input_error.h"
#include "common/text.h"
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

SymbolClassifier::SymbolClassifier(const inputs::ApiCatalog& catalog, std::vector<std::string> roots,
                                   inputs::HeaderOnlyIndex headeronly)
    : catalog_(catalog), roots_(std::move(roots)), headeronly_(std::move(headeronly)) {
  std::sort(roots_.begin(), roots_.end());
  roots_.erase(std::unique(roots_.begin(), roots_.end()), roots_.end());
}

SymbolClassifier SymbolClassifier::from_rules(const inputs::ApiCatalog& catalog, const inputs::RulesSource& rules) {
  // The namespaces are api/namespaces.yaml's, which the catalog (loaded from
  // the same rules) has parsed already: not parsed a second time per process.
  // --rules-dir's header-only table is read (and checked) now; the embedded
  // one when first needed (headeronly()).
  if (!rules.is_embedded())
    return SymbolClassifier(catalog, catalog.namespace_roots(), inputs::HeaderOnlyIndex::load(rules));
  return SymbolClassifier(catalog, catalog.namespace_roots(), rules);
}

SymbolClassifier::SymbolClassifier(const inputs::ApiCatalog& catalog, std::vector<std::string> roots,
                                   inputs::RulesSource headeronly_rules)
    : SymbolClassifier(catalog, std::move(roots)) {
  headeronly_rules_ = std::move(headeronly_rules);
}

const inputs::HeaderOnlyIndex& SymbolClassifier::headeronly() {
  if (headeronly_rules_) {
    headeronly_ = inputs::HeaderOnlyIndex::load(*headeronly_rules_);
    headeronly_rules_.reset();
  }
  return headeronly_;
}

namespace {

using text::is_identifier_char;

// Calls `f(prefix)` for "c10", "c10::Half", "c10::Half::operator float", ...
// until it returns true.
template <typename F>
bool any_prefix(std::string_view q, F&& f) {
  for (size_t end = q.find("::");; end = q.find("::", end + 2)) {
    if (f(q.substr(0, end))) return true;
    if (end == std::string_view::npos) return false;
  }
}

}  // namespace

bool SymbolClassifier::only_header_only_names(std::string text, std::string_view skip) {
  // The template's own name is header-only; every other torch name the
  // instance mentions (template arguments, parameter types) must be too:
  // c10::operator<< <long>(std::ostream&, c10::ArrayRef<long>) is an
  // instance of a template of c10/util/ArrayRef.h, not of complex.h's.
  if (!skip.empty())
    for (size_t p = text.find(skip); p != std::string::npos; p = text.find(skip, p)) text.erase(p, skip.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (!is_identifier_char(text[i]) || (i > 0 && (is_identifier_char(text[i - 1]) || text[i - 1] == ':'))) continue;
    size_t j = i;
    while (j < text.size() && is_identifier_char(text[j])) ++j;
    const std::string_view first(text.data() + i, j - i);
    if (j + 1 >= text.size() || text[j] != ':' || text[j + 1] != ':' ||
        std::find(roots_.begin(), roots_.end(), first) == roots_.end()) {
      i = j;
      continue;
    }
    while (j + 2 < text.size() && text[j] == ':' && text[j + 1] == ':' && is_identifier_char(text[j + 2])) {
      j += 2;
      while (j < text.size() && is_identifier_char(text[j])) ++j;
    }
    const std::string_view name(text.data() + i, j - i);
    i = j;
    if (catalog_.classify(name).kind != inputs::NamespaceKind::Unstable) continue;
    if (!any_prefix(name, [&](std::string_view p) { return headeronly().has_name(p) && p != first; })) return false;
  }
  return true;
}

bool SymbolClassifier::is_header_only(std::string_view mangled, const SymbolScope& scope) {
  if (headeronly().size() == 0) return false;
  if (headeronly().has_mangled(mangled)) return true;
  const std::string_view q = scope.qualified;
  // The entity is a class torch/headeronly defines (its typeinfo, vtable), or
  // a member of one (c10::Half::operator float).
  if (any_prefix(q, [&](std::string_view p) { return headeronly().has_type(p); })) return true;
  if (scope.is_template_instance && headeronly().has_function_template(q))
    return only_header_only_names(demangler_.demangle(mangled), q);
  if (scope.enclosing_function.empty()) return false;
  // A local entity (a static, a lambda) of a header-only function.
  if (!headeronly_functions_built_) {
    headeronly_functions_built_ = true;
    for (const auto& m : headeronly().mangled_names()) headeronly_functions_.insert(demangler_.demangle(m));
  }
  if (headeronly_functions_.count(scope.enclosing_function)) return true;
  std::string_view in_template;
  any_prefix(q, [&](std::string_view p) { return headeronly().has_function_template(p) && !(in_template = p).empty(); });
  return !in_template.empty() && only_header_only_names(demangler_.demangle(mangled), in_template);
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

SymbolClass SymbolClassifier::classify_msvc(std::string_view symbol, bool want_text) {
  SymbolClass c;
  // MSVC spells each scope as "name@": a symbol naming no known root is other.
  bool maybe = false;
  for (const auto& r : roots_) maybe |= symbol.find(r + "@") != std::string_view::npos;
  if (!maybe) return c;
  SymbolScope scope = analyse_msvc(symbol, want_text);
  if (!scope.demangled || scope.context.empty()) return c;
  inputs::NamespaceMatch m = catalog_.classify(scope.context);
  if (m.kind == inputs::NamespaceKind::Other) return c;
  c.kind = m.kind == inputs::NamespaceKind::Stable ? SymbolKind::StableCxx : SymbolKind::UnstableCxx;
  // Header-only C++ by name: a class torch/headeronly defines (its members,
  // vftable, RTTI) or a function it declares. The mangled-name index is
  // Itanium's, so it cannot help here.
  if (c.kind == SymbolKind::UnstableCxx &&
      (any_prefix(scope.qualified, [&](std::string_view p) { return headeronly().has_type(p); }) ||
       headeronly().has_name(scope.qualified))) {
    c.kind = SymbolKind::StableCxx;
    c.header_only = true;
  }
  c.ns = std::move(m.ns);
  c.context = std::move(scope.context);
  c.demangled = std::move(scope.text);
  c.qualified = std::move(scope.qualified);
  return c;
}

SymbolClass SymbolClassifier::classify(std::string_view symbol, bool want_text) {
  if (is_msvc_mangled(symbol)) return classify_msvc(symbol, want_text);
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
  if (c.kind == SymbolKind::UnstableCxx && is_header_only(symbol, scope)) {
    c.kind = SymbolKind::StableCxx;
    c.header_only = true;
  }
  c.ns = std::move(m.ns);
  c.context = std::move(scope.context);
  c.demangled = std::move(scope.text);
  c.qualified = std::move(scope.qualified);
  return c;
}

}  // namespace torchabi::binary
