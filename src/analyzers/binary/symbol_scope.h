// Finds the declaration context of a mangled C++ symbol — the namespaces and
// classes it is declared in — by walking the AST of LLVM's Itanium demangler.
//
// Why the AST and not text: the demangled string of a template function starts
// with its return type ("void c10::foo<int>()"), local entities print their
// enclosing function with parameters ("c10::f()::{lambda()#1}"), and special
// names read "typeinfo for c10::Error"; none of these is a reliable prefix.
// The AST gives the entity the symbol is about and its enclosing scopes
// directly. (ItaniumPartialDemangler, LLVM's convenience wrapper over the same
// parser, prints local contexts with return types and says nothing about
// special names, so it is not enough here.)
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace torchabi::binary {

struct SymbolScope {
  bool demangled = false;  // false: not an Itanium-mangled name, or malformed
  // Declaration context of the entity the symbol names, template arguments
  // left out: "c10::detail" for c10::detail::torchCheckFail(...), "c10" for
  // "typeinfo for c10::Error", "c10::foo" for a lambda inside
  // c10::foo<int>(). Empty at global scope.
  std::string context;
  std::string text;  // the full demangled name, when asked for
  // The entity's own qualified name, template arguments left out:
  // "c10::toString", "c10::Half::operator float", "c10::Error" for its typeinfo.
  std::string qualified;
  bool is_template_instance = false;  // the entity's name has template arguments
  // For a local entity (a static in a function, a lambda): the enclosing
  // function as the demangler prints it, "c10::toString(c10::ScalarType)".
  std::string enclosing_function;
};

// Not thread-safe: one parser and one arena, reused for every symbol so that
// demangling thousands of symbols allocates almost nothing.
class ScopeDemangler {
public:
  ScopeDemangler();
  ~ScopeDemangler();
  ScopeDemangler(const ScopeDemangler&) = delete;
  ScopeDemangler& operator=(const ScopeDemangler&) = delete;

  SymbolScope analyse(std::string_view mangled, bool want_text);
  // The full demangled text, or `mangled` itself when it does not demangle.
  std::string demangle(std::string_view mangled);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace torchabi::binary
