// Sorts a dynamic symbol into what it means for the stable ABI: a stable C
// shim function (with the release that introduced it), a shim-like name our
// rules do not know, C++ from a stable or an unstable PyTorch namespace, or
// anything else (libc, CUDA, Python, the extension's own code).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unordered_set>

#include "analyzers/binary/symbol_scope.h"
#include "inputs/api_catalog.h"
#include "inputs/headeronly_index.h"
#include "inputs/rules_source.h"

namespace torchabi::binary {

enum class SymbolKind { StableShim, UnknownShim, StableCxx, UnstableCxx, Other };

const char* to_string(SymbolKind k);

struct SymbolClass {
  SymbolKind kind = SymbolKind::Other;
  const inputs::CFunction* function = nullptr;  // StableShim: the catalog entry
  std::string ns;                               // C++: deciding namespace, e.g. "c10", "torch::stable"
  std::string context;                          // C++: declaration context, e.g. "c10::detail"
  std::string demangled;                        // C++: full text, when asked for
  std::string qualified;                        // C++: the entity's name, e.g. "torch::stable::Tensor::dim"
  bool header_only = false;  // StableCxx because torch/headeronly defines it (its namespace says unstable)
};

class SymbolClassifier {
public:
  // `namespace_roots`: the first component of every namespace the catalog
  // classifies ("torch", "at", "c10", "caffe2"). A mangled name can only be
  // declared inside namespace N if it spells N's <source-name> ("3c10"), so
  // names spelling none of them are "other" without being demangled. This is
  // only a shortcut: every decision is made on the demangled context.
  //
  // `headeronly`: C++ that torch/headeronly defines in those namespaces
  // (c10::toString(c10::ScalarType), c10::Half, ...). It is stable whatever
  // its namespace: where a declaration lives decides, not how it is spelled.
  SymbolClassifier(const inputs::ApiCatalog& catalog, std::vector<std::string> namespace_roots,
                   inputs::HeaderOnlyIndex headeronly = {});
  // Roots read from rules/api/namespaces.yaml, header-only C++ from
  // rules/api/headeronly_cxx.tsv. Throws InputError when malformed.
  static SymbolClassifier from_rules(const inputs::ApiCatalog& catalog, const inputs::RulesSource& rules);

  // Itanium-mangled C++ (ELF, Mach-O without its leading '_'), MSVC-mangled
  // C++ (PE imports) and C names.
  SymbolClass classify(std::string_view symbol, bool want_text = false);
  std::string demangle(std::string_view symbol) { return demangler_.demangle(symbol); }

  const inputs::ApiCatalog& catalog() const { return catalog_; }

private:
  // The header-only table read from `headeronly_rules` when first needed.
  SymbolClassifier(const inputs::ApiCatalog& catalog, std::vector<std::string> namespace_roots,
                   inputs::RulesSource headeronly_rules);
  bool may_be_in_known_namespace(std::string_view mangled) const;
  SymbolClass classify_msvc(std::string_view symbol, bool want_text);
  // Whether a symbol the namespace calls unstable is header-only C++: a
  // function or variable torch/headeronly defines (by mangled name), a
  // member, typeinfo or vtable of a class it defines, an instance of a
  // function template it defines, or a local entity of one of its functions.
  bool is_header_only(std::string_view mangled, const SymbolScope& scope);
  // Whether every unstable-namespace name in `text`, once `skip` is removed,
  // is header-only C++ (or inside a class of it).
  bool only_header_only_names(std::string text, std::string_view skip);

  // The index, read from `headeronly_rules_` on first need when from_rules()
  // left it there: a library importing no C++ of those namespaces never
  // needs it, and reading it was a sixth of such an audit (bench/audit).
  const inputs::HeaderOnlyIndex& headeronly();

  const inputs::ApiCatalog& catalog_;
  std::vector<std::string> roots_;
  inputs::HeaderOnlyIndex headeronly_;
  std::optional<inputs::RulesSource> headeronly_rules_;
  std::unordered_set<std::string> headeronly_functions_;  // demangled, built on first need
  bool headeronly_functions_built_ = false;
  ScopeDemangler demangler_;
};

}  // namespace torchabi::binary
