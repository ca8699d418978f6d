// ParsedTu::references() and visit_project_cursors(): the AST walk over the
// project's own code. Only top-level declarations located in project files
// are entered, so the cost is proportional to the project's code, not to the
// (often huge) torch headers it includes.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "analyzers/source/cursor_utils.h"
#include "analyzers/source/front_end.h"
#include "common/text.h"

namespace torchabi::source {

namespace {

using text::is_identifier_char;

// Extends [begin, ...) backwards over a written qualifier: "at::", "::c10::".
uint32_t qualifier_begin(std::string_view text, uint32_t begin) {
  uint32_t b = begin;
  for (;;) {
    uint32_t i = b;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
    if (i < 2 || text[i - 1] != ':' || text[i - 2] != ':') return b;
    i -= 2;
    uint32_t colons = i;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
    uint32_t end_ident = i;
    while (i > 0 && is_identifier_char(text[i - 1])) --i;
    if (i == end_ident) return colons;  // a leading "::"
    b = i;
  }
}

struct Walker {
  const ParsedTu& tu;
  std::vector<Reference>& out;
  // file -> (offset -> macro name) of top-level macro expansions
  std::unordered_map<std::string, std::map<uint32_t, std::string>> macro_at;

  struct DeclInfo {
    std::string name, qualified, file, header;
    uint32_t line = 0;
    HeaderKind kind = HeaderKind::Other;
    EntityKind entity = EntityKind::Other;
    bool project = false;
  };
  std::unordered_map<unsigned, std::vector<std::pair<CXCursor, DeclInfo>>> decl_cache;
  std::set<std::tuple<std::string, uint32_t, std::string>> added;
  std::string own_file;  // the main file, canonical (spelled_in_own_definition)
  // Calls of torch functions and operators (`at::sigmoid(x)`, `a * b`), in
  // visiting order: the callee's reference finds its call here, so that a
  // rewrite to another function can be built from the written arguments.
  struct TorchCall {
    CXCursor call;
    CXCursor callee;
    Range extent;
  };
  std::vector<TorchCall> torch_calls;

  const DeclInfo& info(CXCursor decl) {
    unsigned h = clang_hashCursor(decl);
    auto& bucket = decl_cache[h];
    for (auto& [c, i] : bucket)
      if (clang_equalCursors(c, decl)) return i;
    DeclInfo i;
    i.name = spelling(decl);
    i.qualified = qualified_name(decl);
    i.entity = entity_kind(decl);
    CXFile f = nullptr;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(decl), &f, &line, nullptr, nullptr);
    if (f) {
      i.file = tu.path_of(f);
      i.line = line;
      i.project = tu.is_project_file(i.file);
      i.header = tu.torch_header_name(i.file);
      i.kind = i.header.empty() ? HeaderKind::Other : tu.classifier().classify(i.header);
    }
    if (i.kind == HeaderKind::Unstable) prefer_stable_declaration(decl, i);
    if (i.kind == HeaderKind::Unstable && foreign_alias(decl)) {
      i.header.clear();
      i.kind = HeaderKind::Other;
    }
    bucket.emplace_back(decl, std::move(i));
    return bucket.back().second;
  }

  // Where an entity lives decides, not which of its declarations a name
  // found: a function that a stable header defines (c10::toString(ScalarType)
  // in torch/headeronly) and an unstable header declares again is stable.
  void prefer_stable_declaration(CXCursor decl, DeclInfo& i) {
    for (CXCursor other : {clang_getCursorDefinition(decl), clang_getCanonicalCursor(decl)}) {
      if (clang_Cursor_isNull(other) || clang_equalCursors(other, decl)) continue;
      CXFile f = nullptr;
      unsigned line = 0;
      clang_getExpansionLocation(clang_getCursorLocation(other), &f, &line, nullptr, nullptr);
      if (!f) continue;
      const std::string file = tu.path_of(f);
      const std::string header = tu.torch_header_name(file);
      if (header.empty() || tu.classifier().classify(header) != HeaderKind::Stable) continue;
      i.file = file;
      i.line = line;
      i.header = header;
      i.kind = HeaderKind::Stable;
      return;
    }
  }

  // A global alias a torch header declares for a type defined outside torch
  // and the project (c10/util/python_stub.h's `using PyObject = _object;`,
  // so that its headers need not include Python.h) names that other API, not
  // torch's: PyObject is Python's C API, which a stable extension may use.
  bool foreign_alias(CXCursor decl) {
    if (decl.kind != CXCursor_TypedefDecl && decl.kind != CXCursor_TypeAliasDecl) return false;
    const CXCursor parent = clang_getCursorSemanticParent(decl);
    if (parent.kind != CXCursor_TranslationUnit) return false;
    const CXCursor target = clang_getTypeDeclaration(clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(decl)));
    if (clang_Cursor_isNull(target) || clang_isInvalid(target.kind)) return false;
    const CXCursor def = clang_getCursorDefinition(target);
    if (clang_Cursor_isNull(def)) return false;  // only declared: whose it is is unknown
    CXFile f = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(def), &f, nullptr, nullptr, nullptr);
    if (!f) return false;
    const std::string& file = tu.path_of(f);
    return !tu.is_project_file(file) && tu.torch_header_name(file).empty();
  }

  // Using-declarations in torch namespaces, read on first need: namespace ->
  // (name -> the using-declaration), and the namespaces each one's
  // using-directives name (`namespace at { using namespace c10; }`).
  struct TorchUsings {
    std::map<std::string, std::map<std::string, CXCursor>> declarations;
    std::map<std::string, std::set<std::string>> directives;
  };
  std::optional<TorchUsings> usings;

  static bool is_torch_namespace(std::string_view path) {
    const std::string_view first = path.substr(0, path.find("::"));
    return first == "c10" || first == "at" || first == "torch" || first == "caffe2";
  }

  static void collect_usings(CXCursor scope, const std::string& path, TorchUsings& out) {
    struct Ctx {
      TorchUsings* out;
      const std::string* path;
    } ctx{&out, &path};
    clang_visitChildren(
        scope,
        [](CXCursor c, CXCursor, CXClientData data) {
          auto* ctx = static_cast<Ctx*>(data);
          const std::string& path = *ctx->path;
          if (c.kind == CXCursor_Namespace) {
            const std::string name = spelling(c);
            if (!name.empty() && (!path.empty() || is_torch_namespace(name)))
              collect_usings(c, path.empty() ? name : path + "::" + name, *ctx->out);
          } else if (!path.empty() && c.kind == CXCursor_UsingDeclaration) {
            ctx->out->declarations[path].emplace(spelling(c), c);
          } else if (!path.empty() && c.kind == CXCursor_UsingDirective) {
            CXCursor named = clang_getNullCursor();  // the last NamespaceRef: the namespace itself
            clang_visitChildren(
                c,
                [](CXCursor r, CXCursor, CXClientData d) {
                  if (r.kind == CXCursor_NamespaceRef) *static_cast<CXCursor*>(d) = clang_getCursorReferenced(r);
                  return CXChildVisit_Continue;
                },
                &named);
            if (!clang_Cursor_isNull(named) && !clang_isInvalid(named.kind))
              ctx->out->directives[path].insert(qualified_name(named));
          }
          return CXChildVisit_Continue;
        },
        &ctx);
  }

  // The using-declaration that makes `name` a member of torch namespace `ns`
  // (directly, or through the namespaces its using-directives name), and
  // the namespace holding it.
  std::optional<std::pair<CXCursor, std::string>> torch_using(const std::string& ns, const std::string& name) {
    if (!usings) {
      usings.emplace();
      collect_usings(clang_getTranslationUnitCursor(tu.raw()), "", *usings);
    }
    std::set<std::string> seen;
    std::vector<std::string> todo{ns};
    while (!todo.empty()) {
      const std::string cur = todo.back();
      todo.pop_back();
      if (!seen.insert(cur).second) continue;
      if (auto it = usings->declarations.find(cur); it != usings->declarations.end())
        if (auto jt = it->second.find(name); jt != it->second.end()) return std::make_pair(jt->second, cur);
      if (auto it = usings->directives.find(cur); it != usings->directives.end())
        todo.insert(todo.end(), it->second.begin(), it->second.end());
    }
    return std::nullopt;
  }

  // `c10::optional` where c10 only has `using std::optional;` (2.x: in
  // c10/util/Optional.h, a header the stable build hides): the code names
  // the torch spelling, which is what its port must change, as it did when
  // c10 declared a class of its own. The reference becomes that name,
  // declared where the using-declaration is.
  void spelled_through_torch_using(Reference& ref, std::string_view text) {
    if (ref.qualified_range.begin >= ref.range.begin || ref.range.begin > text.size()) return;
    std::string q;
    for (char ch : text.substr(ref.qualified_range.begin, ref.range.begin - ref.qualified_range.begin))
      if (!std::isspace(static_cast<unsigned char>(ch))) q += ch;
    if (q.starts_with("::")) q.erase(0, 2);
    if (q.ends_with("::")) q.resize(q.size() - 2);
    if (q.empty() || !is_torch_namespace(q) || ref.qualified.starts_with(q + "::")) return;
    const auto found = torch_using(q, ref.name);
    if (!found) return;
    CXFile f = nullptr;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(found->first), &f, &line, nullptr, nullptr);
    if (!f) return;
    const std::string file = tu.path_of(f);
    const std::string header = tu.torch_header_name(file);
    if (header.empty()) return;
    ref.qualified = found->second + "::" + ref.name;
    ref.decl_file = file;
    ref.decl_line = line;
    ref.decl_header = header;
    ref.decl_kind = tu.classifier().classify(header);
  }

  // Name range of a reference cursor, in file terms.
  Range name_range(CXCursor c, const std::string& decl_name) {
    Range loc;
    if ((c.kind == CXCursor_MemberRefExpr || c.kind == CXCursor_OverloadedDeclRef) && !decl_name.empty()) {
      // A member call that depends on a template parameter (an unresolved
      // member expression) has no proper name range: its extent starts at
      // the object; its location is the member's name.
      loc = tu.range_at(clang_getCursorLocation(c), static_cast<uint32_t>(decl_name.size()));
      std::string_view text = loc.valid() ? tu.file_text(loc.file) : std::string_view();
      if (loc.end > text.size() || text.substr(loc.begin, decl_name.size()) != decl_name) {
        // libclang locates an unresolved member expression at its object:
        // the member's name is the last occurrence in its extent.
        Range extent = tu.range_of(clang_getCursorExtent(c));
        size_t at = std::string_view::npos;
        if (extent.valid() && extent.file == loc.file && extent.end <= text.size() && extent.end > extent.begin)
          at = text.substr(extent.begin, extent.end - extent.begin).rfind(decl_name);
        if (at == std::string_view::npos) {
          loc = Range{};
        } else {
          loc = tu.range_at(clang_getCursorLocation(c), 0);
          loc.begin = extent.begin + static_cast<uint32_t>(at);
          loc.end = loc.begin + static_cast<uint32_t>(decl_name.size());
          loc.column = extent.column + (loc.begin - extent.begin);  // same line: a member name follows its object
          loc.line = extent.line;
          for (uint32_t k = extent.begin; k < loc.begin; ++k)
            if (text[k] == '\n') ++loc.line;
          if (loc.line != extent.line) {
            uint32_t line_start = loc.begin;
            while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
            loc.column = loc.begin - line_start + 1;
          }
        }
      }
    }
    if (c.kind == CXCursor_DeclRefExpr || c.kind == CXCursor_MemberRefExpr) {
      CXSourceRange r = clang_getCursorReferenceNameRange(c, 0, 0);
      if (!clang_Range_isNull(r)) {
        Range named = tu.range_of(r);
        if (!loc.valid() || named.begin == loc.begin) return named;
      }
    }
    if (loc.valid()) return loc;
    return tu.range_of(clang_getCursorExtent(c));
  }

  // A reference produced by a macro's replacement list shows up at the
  // macro's name; one written as a macro argument shows up where it is written.
  const std::string* produced_by_macro(CXCursor c, const Range& r) {
    CXFile ef = nullptr;
    unsigned eoff = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &ef, nullptr, nullptr, &eoff);
    if (!ef || tu.path_of(ef) != r.file || eoff != r.begin) return nullptr;  // macro argument or plain code
    auto fit = macro_at.find(r.file);
    if (fit == macro_at.end()) return nullptr;
    auto mit = fit->second.find(r.begin);
    return mit == fit->second.end() ? nullptr : &mit->second;
  }

  // Where a name a macro produced is written, when that is the #define of a
  // macro of the main file (Reference::spelled).
  void spelled_in_own_definition(CXCursor c, CXCursor parent, const std::string& name, Reference& ref) {
    auto spelled_at = [&](CXSourceLocation loc, CXFile* f, unsigned* line, unsigned* col, unsigned* off) {
      clang_getSpellingLocation(loc, f, line, col, off);
      return *f != nullptr;
    };
    CXFile f = nullptr;
    unsigned line = 0, col = 0, off = 0;
    if (!spelled_at(clang_getCursorLocation(c), &f, &line, &col, &off)) return;
    const std::string& file = tu.path_of(f);
    std::error_code ec;
    if (own_file.empty()) own_file = std::filesystem::weakly_canonical(tu.main_file(), ec).string();
    if (std::filesystem::weakly_canonical(file, ec).string() != own_file) return;
    const std::string_view text = tu.file_text(file);
    if (off + name.size() > text.size() || text.substr(off, name.size()) != name) return;
    const bool in_body = std::any_of(tu.macro_definitions().begin(), tu.macro_definitions().end(), [&](const MacroDefinition& m) {
      return m.body_range.file == file && m.body_range.begin <= off && off + name.size() <= m.body_range.end;
    });
    if (!in_body) return;
    const uint32_t qb = qualifier_begin(text, off);  // `at::` of at::Tensor written there
    ref.spelled.file = file;
    ref.spelled.line = line;
    ref.spelled.column = col - (off - qb);
    ref.spelled.begin = qb;
    ref.spelled.end = off + static_cast<uint32_t>(name.size());
    if (c.kind != CXCursor_MemberRefExpr || parent.kind != CXCursor_CallExpr) return;
    CXFile ef = nullptr;
    unsigned eline = 0, ecol = 0, eoff = 0;
    if (spelled_at(clang_getRangeEnd(clang_getCursorExtent(parent)), &ef, &eline, &ecol, &eoff) &&
        clang_File_isEqual(ef, f) && eoff > ref.spelled.end && eoff <= text.size())
      ref.spelled_call_end = eoff;
  }

  void add(CXCursor c, CXCursor decl, Via via, CXCursor parent) {
    const DeclInfo& d = info(decl);
    if (d.project || d.file.empty()) return;
    Reference ref;
    ref.kind = d.entity;
    ref.via = via;
    ref.name = d.name;
    ref.qualified = d.qualified;
    ref.decl_file = d.file;
    ref.decl_line = d.line;
    ref.decl_header = d.header;
    ref.decl_kind = d.kind;
    ref.range = via == Via::DeducedType ? tu.range_at(clang_getCursorLocation(c), static_cast<uint32_t>(spelling(c).size()))
                                        : name_range(c, d.name);
    if (!ref.range.valid() || !tu.is_project_file(ref.range.file)) return;
    if (via == Via::DeducedType) {
      ref.variable = spelling(c);
      // A variable declared by a macro's expansion (AT_DISPATCH's `the_type`).
      if (const std::string* m = produced_by_macro(c, ref.range)) {
        ref.via = Via::MacroBody;
        ref.macro = *m;
        ref.range.end = ref.range.begin + static_cast<uint32_t>(m->size());
      }
    }
    if (via == Via::Spelled && pasted_scoped_enumerator(decl, ref)) {
      // `CPU` in TORCH_LIBRARY_IMPL(ns, CPU, m): a scoped enumerator cannot be
      // written unqualified, so the macro pasted its qualifier.
      for (const auto& u : tu.macro_uses())
        if (u.invocation_range.file == ref.range.file && u.invocation_range.begin <= ref.range.begin &&
            ref.range.end <= u.invocation_range.end) {
          ref.via = Via::MacroBody;
          ref.macro = u.name;
          ref.range = u.range;
          break;
        }
    }
    if (ref.via == Via::Spelled) {
      if (const std::string* m = produced_by_macro(c, ref.range)) {
        // Unless the macro's name is the name itself (`#define f f`), the
        // text at this position is the macro, not the declaration's name.
        std::string_view text = tu.file_text(ref.range.file);
        if (text.substr(ref.range.begin, d.name.size()) != d.name || *m != d.name) {
          ref.via = Via::MacroBody;
          ref.macro = *m;
          ref.range.end = ref.range.begin + static_cast<uint32_t>(m->size());
          spelled_in_own_definition(c, parent, d.name, ref);
        }
      }
    }
    ref.qualified_range = ref.range;
    if (ref.via == Via::UsingDirective) {
      // `torch` and `nn` in `namespace F = torch::nn::functional;` qualify the
      // namespace the directive names: one reference, for the whole name.
      std::string_view text = tu.file_text(ref.range.file);
      size_t after = ref.range.end;
      while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
      if (text.substr(after, 2) == "::") return;
      if (ref.range.begin <= text.size()) {
        uint32_t qb = qualifier_begin(text, ref.range.begin);
        ref.qualified_range.column -= (ref.range.begin - qb);
        ref.qualified_range.begin = qb;
      }
    }
    if (ref.via == Via::Spelled) {
      std::string_view text = tu.file_text(ref.range.file);
      if (ref.range.begin <= text.size()) {
        uint32_t qb = qualifier_begin(text, ref.range.begin);
        ref.qualified_range.column -= (ref.range.begin - qb);
        ref.qualified_range.begin = qb;
      }
      if (c.kind == CXCursor_MemberRefExpr && parent.kind == CXCursor_CallExpr) member_call(c, parent, ref);
      else if (c.kind == CXCursor_DeclRefExpr) free_call(decl, ref);
      if (d.header.empty()) spelled_through_torch_using(ref, text);
    }
    // One reference per use: an unresolved call also has an overload-set
    // cursor for the same name (with or without its qualifier).
    if (!added.emplace(ref.qualified_range.file, ref.qualified_range.begin, ref.qualified).second) return;
    out.push_back(std::move(ref));
  }

  bool pasted_scoped_enumerator(CXCursor decl, const Reference& ref) {
    if (decl.kind != CXCursor_EnumConstantDecl) return false;
    CXCursor parent = clang_getCursorSemanticParent(decl);
    if (parent.kind != CXCursor_EnumDecl || !clang_EnumDecl_isScoped(parent)) return false;
    std::string_view text = tu.file_text(ref.range.file);
    return ref.range.begin < 2 || text.substr(ref.range.begin - 2, 2) != "::";
  }

  static std::string type_spelling(CXCursor c) { return take(clang_getTypeSpelling(clang_getCursorType(c))); }

  void member_call(CXCursor member, CXCursor call, Reference& ref) {
    ref.call_range = tu.range_of(clang_getCursorExtent(call));
    struct First {
      CXCursor c;
      bool found = false;
    } first{clang_getNullCursor()};
    clang_visitChildren(
        member,
        [](CXCursor c, CXCursor, CXClientData d) {
          auto* f = static_cast<First*>(d);
          f->c = c;
          f->found = true;
          return CXChildVisit_Break;
        },
        &first);
    if (first.found) ref.receiver_range = tu.range_of(clang_getCursorExtent(first.c));
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; ++i) {
      const CXCursor arg = clang_Cursor_getArgument(call, i);
      ref.argument_ranges.push_back(tu.range_of(clang_getCursorExtent(arg)));
      ref.argument_types.push_back(type_spelling(arg));
    }
  }

  void record_call(CXCursor call) {
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(callee) || info(callee).project) return;
    Range extent = tu.range_of(clang_getCursorExtent(call));
    if (extent.valid() && tu.is_project_file(extent.file)) torch_calls.push_back({call, callee, extent});
  }

  // The call whose callee `ref` names: the innermost recorded call of `decl`
  // that holds the name outside its arguments.
  void free_call(CXCursor decl, Reference& ref) {
    for (auto it = torch_calls.rbegin(); it != torch_calls.rend(); ++it) {
      const Range& e = it->extent;
      if (e.file != ref.range.file || ref.range.begin < e.begin || ref.range.end > e.end) continue;
      if (!clang_equalCursors(it->callee, decl)) continue;
      std::vector<Range> args;
      std::vector<std::string> types;
      bool in_argument = false;
      const int n = clang_Cursor_getNumArguments(it->call);
      for (int i = 0; i < n; ++i) {
        const CXCursor arg = clang_Cursor_getArgument(it->call, i);
        types.push_back(type_spelling(arg));
        Range a = tu.range_of(clang_getCursorExtent(arg));
        if (a.valid() && a.file == ref.range.file && ref.range.begin >= a.begin && ref.range.end <= a.end) in_argument = true;
        args.push_back(std::move(a));
      }
      if (in_argument) continue;
      ref.call_range = e;
      ref.argument_ranges = std::move(args);
      ref.argument_types = std::move(types);
      return;
    }
  }

  void deduced(CXCursor var) {
    CXType t = clang_getCursorType(var);
    while (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference || t.kind == CXType_Pointer)
      t = clang_getPointeeType(t);
    if (t.kind != CXType_Auto) return;
    CXType canon = clang_getCanonicalType(t);
    while (canon.kind == CXType_LValueReference || canon.kind == CXType_RValueReference || canon.kind == CXType_Pointer)
      canon = clang_getPointeeType(canon);
    CXCursor decl = clang_getTypeDeclaration(canon);
    if (clang_Cursor_isNull(decl) || clang_isInvalid(decl.kind)) return;
    add(var, decl, Via::DeducedType, clang_getNullCursor());
  }

  void visit(CXCursor c, CXCursor parent) {
    switch (c.kind) {
      case CXCursor_TypeRef:
      case CXCursor_TemplateRef:
      case CXCursor_MemberRef:
      case CXCursor_VariableRef:
      case CXCursor_OverloadedDeclRef:
      case CXCursor_DeclRefExpr:
      case CXCursor_MemberRefExpr: {
        CXCursor d = referenced_declaration(c);
        if (!clang_Cursor_isNull(d)) add(c, d, Via::Spelled, parent);
        break;
      }
      case CXCursor_NamespaceRef:
        // Qualifiers are covered by the name they qualify; a namespace named
        // on its own (`using namespace at;`) is a reference of its own.
        if (parent.kind == CXCursor_UsingDirective || parent.kind == CXCursor_NamespaceAlias) {
          CXCursor d = referenced_declaration(c);
          if (!clang_Cursor_isNull(d)) add(c, d, Via::UsingDirective, parent);
        }
        break;
      case CXCursor_VarDecl:
        deduced(c);
        break;
      case CXCursor_CallExpr:
        record_call(c);
        break;
      default:
        break;
    }
  }
};

template <class F>
void visit_project(const ParsedTu& tu, F&& on_cursor) {
  struct Ctx {
    const ParsedTu* tu;
    F* fn;
  } ctx{&tu, &on_cursor};
  clang_visitChildren(
      clang_getTranslationUnitCursor(tu.raw()),
      [](CXCursor c, CXCursor parent, CXClientData data) {
        auto* ctx = static_cast<Ctx*>(data);
        if (is_preprocessing_cursor(c)) return CXChildVisit_Continue;
        if (!ctx->tu->is_project_location(clang_getCursorLocation(c))) return CXChildVisit_Continue;
        if (!(*ctx->fn)(c, parent)) return CXChildVisit_Continue;
        clang_visitChildren(
            c,
            [](CXCursor c2, CXCursor p2, CXClientData d2) {
              auto* ctx2 = static_cast<Ctx*>(d2);
              return (*ctx2->fn)(c2, p2) ? CXChildVisit_Recurse : CXChildVisit_Continue;
            },
            data);
        return CXChildVisit_Continue;
      },
      &ctx);
}

}  // namespace

const std::vector<Reference>& ParsedTu::references() const {
  if (references_) return *references_;
  references_.emplace();
  Walker w{*this, *references_, {}, {}, {}, {}};
  for (const auto& m : macro_uses_) w.macro_at[m.range.file].emplace(m.range.begin, m.name);
  visit_project(*this, [&](CXCursor c, CXCursor parent) {
    w.visit(c, parent);
    return true;
  });
  return *references_;
}

void ParsedTu::visit_project_cursors(CursorVisitor& visitor) const {
  visit_project(*this, [&](CXCursor c, CXCursor parent) { return visitor.visit(c, parent); });
}

}  // namespace torchabi::source
