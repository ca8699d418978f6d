// The declaration context of an MSVC-mangled symbol ("?what@c10@@..."), read
// from the AST of LLVM's Microsoft demangler: the same SymbolScope the
// Itanium side gives, so Windows imports are classified by namespace with the
// same rules.
#pragma once

#include <string_view>

#include "analyzers/binary/symbol_scope.h"

namespace torchabi::binary {

// True for names in the MSVC C++ mangling ("?" first).
inline bool is_msvc_mangled(std::string_view s) { return s.starts_with("?"); }

// scope.demangled is false when `mangled` does not parse.
SymbolScope analyse_msvc(std::string_view mangled, bool want_text);

}  // namespace torchabi::binary
