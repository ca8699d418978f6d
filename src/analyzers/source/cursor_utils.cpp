#include "analyzers/source/cursor_utils.h"

#include <algorithm>
#include <vector>

namespace torchabi::source {

std::string take(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

std::string spelling(CXCursor c) { return take(clang_getCursorSpelling(c)); }

CXCursor referenced_declaration(CXCursor c) {
  if (c.kind == CXCursor_OverloadedDeclRef) {
    if (clang_getNumOverloadedDecls(c) == 0) return clang_getNullCursor();
    return clang_getOverloadedDecl(c, 0);
  }
  CXCursor d = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(d) || clang_isInvalid(d.kind)) return clang_getNullCursor();
  if (d.kind == CXCursor_OverloadedDeclRef) {
    if (clang_getNumOverloadedDecls(d) == 0) return clang_getNullCursor();
    return clang_getOverloadedDecl(d, 0);
  }
  return d;
}

std::string qualified_name(CXCursor decl) {
  std::vector<std::string> parts;
  for (CXCursor cur = decl; !clang_Cursor_isNull(cur) && !clang_isInvalid(cur.kind) &&
                            cur.kind != CXCursor_TranslationUnit;
       cur = clang_getCursorSemanticParent(cur)) {
    if (cur.kind == CXCursor_LinkageSpec || cur.kind == CXCursor_UnexposedDecl) continue;
    if (cur.kind == CXCursor_Namespace && clang_Cursor_isInlineNamespace(cur)) continue;
    std::string s = spelling(cur);
    if (s.empty()) s = cur.kind == CXCursor_Namespace ? "(anonymous namespace)" : "(anonymous)";
    parts.push_back(std::move(s));
    if (parts.size() > 64) break;  // defensive: malformed ASTs must not loop
  }
  std::reverse(parts.begin(), parts.end());
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "::" : "") + parts[i];
  return out;
}

EntityKind entity_kind(CXCursor d) {
  switch (d.kind) {
    case CXCursor_StructDecl:
    case CXCursor_UnionDecl:
    case CXCursor_ClassDecl:
    case CXCursor_EnumDecl:
    case CXCursor_TypedefDecl:
    case CXCursor_TypeAliasDecl:
    case CXCursor_ClassTemplatePartialSpecialization:
      return EntityKind::Type;
    case CXCursor_ClassTemplate:
    case CXCursor_TypeAliasTemplateDecl:
    case CXCursor_TemplateTemplateParameter:
      return EntityKind::Template;
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
      return clang_getCursorSemanticParent(d).kind == CXCursor_ClassDecl ||
                     clang_getCursorSemanticParent(d).kind == CXCursor_StructDecl ||
                     clang_getCursorSemanticParent(d).kind == CXCursor_ClassTemplate
                 ? EntityKind::Method
                 : EntityKind::Function;
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
    case CXCursor_ConversionFunction:
      return EntityKind::Method;
    case CXCursor_FieldDecl:
      return EntityKind::Field;
    case CXCursor_VarDecl:
      return EntityKind::Variable;
    case CXCursor_EnumConstantDecl:
      return EntityKind::EnumConstant;
    case CXCursor_Namespace:
    case CXCursor_NamespaceAlias:
      return EntityKind::Namespace;
    case CXCursor_MacroDefinition:
      return EntityKind::Macro;
    default:
      return EntityKind::Other;
  }
}

const char* to_string(EntityKind k) {
  switch (k) {
    case EntityKind::Type: return "type";
    case EntityKind::Template: return "template";
    case EntityKind::Function: return "function";
    case EntityKind::Method: return "method";
    case EntityKind::Field: return "field";
    case EntityKind::Variable: return "variable";
    case EntityKind::EnumConstant: return "enum constant";
    case EntityKind::Namespace: return "namespace";
    case EntityKind::Macro: return "macro";
    case EntityKind::Other: return "declaration";
  }
  return "declaration";
}

bool is_preprocessing_cursor(CXCursor c) {
  return c.kind >= CXCursor_FirstPreprocessing && c.kind <= CXCursor_LastPreprocessing;
}

bool is_operator_name(const std::string& name) {
  if (!name.starts_with("operator") || name.size() == 8) return false;
  char c = name[8];
  return !(std::isalnum(static_cast<unsigned char>(c)) || c == '_');
}

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData d) {
        static_cast<std::vector<CXCursor>*>(d)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

}  // namespace torchabi::source
