#include "analyzers/source/ast_regions.h"

#include <algorithm>

#include "analyzers/source/cursor_utils.h"

namespace torchabi::source {

namespace {

bool is_template_kind(CXCursorKind k) {
  return k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

bool is_member_function(CXCursorKind k) {
  return k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
         k == CXCursor_ConversionFunction;
}

bool is_reference_kind(CXCursorKind k) {
  return k == CXCursor_TypeRef || k == CXCursor_TemplateRef || k == CXCursor_NamespaceRef || k == CXCursor_MemberRef ||
         k == CXCursor_VariableRef || k == CXCursor_OverloadedDeclRef || k == CXCursor_DeclRefExpr ||
         k == CXCursor_MemberRefExpr;
}

class Collector final : public CursorVisitor {
public:
  Collector(const ParsedTu& tu, const LintEnv& env, AstRegions& out) : tu_(tu), env_(env), out_(out) {}

  bool visit(CXCursor c, CXCursor parent) override {
    const CXCursorKind k = c.kind;
    if ((parent.kind == CXCursor_TranslationUnit || parent.kind == CXCursor_Namespace ||
         parent.kind == CXCursor_LinkageSpec) &&
        k != CXCursor_Namespace && k != CXCursor_LinkageSpec)
      add_extent(out_.declared, c);
    if (is_reference_kind(k)) {
      reference(c);
      return true;
    }
    if (!clang_isDeclaration(k)) return true;
    if (is_template_kind(k)) {
      add_extent(out_.templates, c);
    } else if (is_member_function(k)) {
      // A member of a class template defined outside the class.
      const CXCursor sem = clang_getCursorSemanticParent(c);
      if (is_template_kind(sem.kind) && !clang_equalCursors(sem, clang_getCursorLexicalParent(c)))
        add_extent(out_.templates, c);
    }
    if (clang_isInvalidDeclaration(c)) add_extent(out_.invalid, c);
    if (k == CXCursor_ParmDecl || k == CXCursor_VarDecl || k == CXCursor_FieldDecl) variable(c);
    return true;
  }

private:
  void add_extent(std::unordered_map<std::string, OffsetRanges>& into, CXCursor c) {
    Range r = tu_.range_of(clang_getCursorExtent(c));
    if (r.valid() && r.end > r.begin) into[r.file].emplace_back(r.begin, r.end);
  }

  void reference(CXCursor c) {
    CXCursor d = referenced_declaration(c);
    if (clang_Cursor_isNull(d)) return;
    CXFile f = nullptr;
    unsigned off = 0;
    clang_getFileLocation(clang_getCursorLocation(c), &f, nullptr, nullptr, &off);
    if (f) out_.resolved[tu_.path_of(f)].push_back(off);
  }

  // The unstable torch class a declared type names, or "".
  std::string torch_class(CXType t) {
    t = clang_getCanonicalType(t);
    while (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference || t.kind == CXType_Pointer)
      t = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind != CXType_Record && t.kind != CXType_Elaborated && t.kind != CXType_Unexposed) return {};
    CXCursor decl = clang_getTypeDeclaration(t);
    if (clang_Cursor_isNull(decl) || clang_isInvalid(decl.kind)) return {};
    CXFile f = nullptr;
    clang_getFileLocation(clang_getCursorLocation(decl), &f, nullptr, nullptr, nullptr);
    Reference r;
    r.qualified = qualified_name(decl);
    if (f) {
      r.decl_file = tu_.path_of(f);
      r.decl_header = tu_.torch_header_name(r.decl_file);
      r.decl_kind = r.decl_header.empty() ? HeaderKind::Other : tu_.classifier().classify(r.decl_header);
      if (tu_.is_project_file(r.decl_file)) return {};
    }
    return classify_reference(r, env_) == ApiClass::Unstable ? r.qualified : std::string();
  }

  void variable(CXCursor c) {
    const std::string name = spelling(c);
    if (name.empty()) return;
    const std::string type = torch_class(clang_getCursorType(c));
    if (type.empty()) return;
    const Range at = tu_.range_at(clang_getCursorLocation(c), static_cast<uint32_t>(name.size()));
    if (!at.valid()) return;
    TypedVariable v;
    v.name = name;
    v.type = type;
    v.scope_begin = at.begin;
    v.scope_end = static_cast<uint32_t>(tu_.file_text(at.file).size());
    const CXCursor parent = clang_getCursorSemanticParent(c);
    if (!clang_Cursor_isNull(parent) && parent.kind != CXCursor_TranslationUnit && parent.kind != CXCursor_Namespace) {
      const Range scope = tu_.range_of(clang_getCursorExtent(parent));
      if (scope.valid() && scope.file == at.file) {
        v.scope_begin = c.kind == CXCursor_VarDecl ? at.begin : scope.begin;
        v.scope_end = scope.end;
      }
    }
    out_.variables[at.file].push_back(std::move(v));
  }

  const ParsedTu& tu_;
  const LintEnv& env_;
  AstRegions& out_;
};

}  // namespace

std::string AstRegions::variable_type(const std::string& file, std::string_view name, uint32_t offset) const {
  auto it = variables.find(file);
  if (it == variables.end()) return {};
  // The innermost declaration in scope wins (a parameter shadowed by a local).
  const TypedVariable* best = nullptr;
  for (const auto& v : it->second)
    if (v.name == name && offset >= v.scope_begin && offset < v.scope_end &&
        (!best || v.scope_begin >= best->scope_begin))
      best = &v;
  return best ? best->type : std::string();
}

bool AstRegions::resolved_in(const std::string& file, uint32_t begin, uint32_t end) const {
  auto it = resolved.find(file);
  if (it == resolved.end()) return false;
  auto lo = std::lower_bound(it->second.begin(), it->second.end(), begin);
  return lo != it->second.end() && *lo < end;
}

OffsetRanges AstRegions::undeclared(const std::string& file, uint32_t size) const {
  OffsetRanges out;
  uint32_t at = 0;
  if (auto it = declared.find(file); it != declared.end())
    for (const auto& [b, e] : it->second) {
      if (b > at) out.emplace_back(at, std::min(b, size));
      at = std::max(at, e);
    }
  if (at < size) out.emplace_back(at, size);
  return out;
}

AstRegions collect_ast_regions(const ParsedTu& tu, const LintEnv& env) {
  AstRegions out;
  Collector c(tu, env, out);
  tu.visit_project_cursors(c);
  for (auto& [_, offsets] : out.resolved) std::sort(offsets.begin(), offsets.end());
  for (auto& [_, r] : out.templates) r = outermost(std::move(r));
  for (auto& [_, r] : out.invalid) r = outermost(std::move(r));
  for (auto& [_, r] : out.declared) r = outermost(std::move(r));
  return out;
}

OffsetRanges outermost(OffsetRanges ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) {
    return a.first < b.first || (a.first == b.first && a.second > b.second);
  });
  OffsetRanges out;
  for (const auto& r : ranges)
    if (out.empty() || r.first >= out.back().second) out.push_back(r);
  return out;
}

OffsetRanges skipped_ranges(const ParsedTu& tu, const std::string& file) {
  OffsetRanges out;
  CXFile f = clang_getFile(tu.raw(), file.c_str());
  if (!f) return out;
  if (CXSourceRangeList* list = clang_getSkippedRanges(tu.raw(), f)) {
    for (unsigned i = 0; i < list->count; ++i) {
      unsigned b = 0, e = 0;
      clang_getFileLocation(clang_getRangeStart(list->ranges[i]), nullptr, nullptr, nullptr, &b);
      clang_getFileLocation(clang_getRangeEnd(list->ranges[i]), nullptr, nullptr, nullptr, &e);
      if (e > b) out.emplace_back(b, e);
    }
    clang_disposeSourceRangeList(list);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace torchabi::source
