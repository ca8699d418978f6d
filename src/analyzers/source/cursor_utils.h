// Small helpers over libclang cursors shared by the front end and by checks
// that visit cursors themselves (CursorVisitor).
#pragma once

#include <clang-c/Index.h>

#include <string>
#include <vector>

#include "analyzers/source/source_model.h"

namespace torchabi::source {

// Takes ownership of a CXString.
std::string take(CXString s);

std::string spelling(CXCursor c);

// The declaration a reference cursor names (TypeRef, DeclRefExpr, ...); for
// an overloaded set the first candidate. Null cursor when unresolved.
CXCursor referenced_declaration(CXCursor c);

// "at::Tensor::add", "c10::kFloat", "torch::stable::Tensor". Inline
// namespaces (std::__1, c10::inline) and extern "C" blocks are left out, as
// a reader would write the name; anonymous namespaces are "(anonymous namespace)".
std::string qualified_name(CXCursor decl);

EntityKind entity_kind(CXCursor decl);

bool is_preprocessing_cursor(CXCursor c);

// The direct children of a cursor, in order.
std::vector<CXCursor> children(CXCursor c);

// True for `operator+`, `operator<<`, ...
bool is_operator_name(const std::string& name);

}  // namespace torchabi::source
