#include "analyzers/binary/msvc_scope.h"

#include <string>
#include <vector>

#include <llvm/Demangle/MicrosoftDemangle.h>
#include <llvm/Demangle/MicrosoftDemangleNodes.h>

namespace torchabi::binary {

namespace {

namespace ms = llvm::ms_demangle;

// A component's name without its template arguments: "ArrayRef" for
// ArrayRef<int>; special names (`vftable', constructors) as printed.
std::string component_name(ms::Node* n) {
  if (n->kind() == ms::NodeKind::NamedIdentifier) {
    const auto* id = static_cast<ms::NamedIdentifierNode*>(n);
    return std::string(id->Name);
  }
  return n->toString(ms::OF_NoTagSpecifier);
}

}  // namespace

SymbolScope analyse_msvc(std::string_view mangled, bool want_text) {
  SymbolScope scope;
  ms::Demangler d;
  std::string_view rest = mangled;
  ms::SymbolNode* s = d.parse(rest);
  if (d.Error || !s || !s->Name || !s->Name->Components || s->Name->Components->Count == 0) return scope;
  const ms::NodeArrayNode* parts = s->Name->Components;
  std::vector<std::string> names;
  for (size_t i = 0; i < parts->Count; ++i) names.push_back(component_name(parts->Nodes[i]));
  // Components run outermost first: the last one is the entity itself.
  for (size_t i = 0; i + 1 < names.size(); ++i) scope.context += (i ? "::" : "") + names[i];
  for (size_t i = 0; i < names.size(); ++i) scope.qualified += (i ? "::" : "") + names[i];
  const ms::Node* last = parts->Nodes[parts->Count - 1];
  if (auto* id = dynamic_cast<const ms::IdentifierNode*>(last)) scope.is_template_instance = id->TemplateParams != nullptr;
  // Special tables (vftable, RTTI) of a class name the class as their context.
  scope.demangled = true;
  // As c++filt prints Itanium names: no access specifier or calling convention.
  if (want_text)
    scope.text = s->toString(static_cast<ms::OutputFlags>(ms::OF_NoAccessSpecifier | ms::OF_NoCallingConvention));
  return scope;
}

}  // namespace torchabi::binary
