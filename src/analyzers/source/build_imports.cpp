#include "analyzers/source/build_imports.h"

#include <deque>
#include <map>
#include <unordered_set>

#include "analyzers/source/cursor_utils.h"
#include "inputs/api_catalog.h"

namespace torchabi::source {

namespace {

bool is_function_like(CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate;
}

bool is_reference(CXCursorKind k) {
  return k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr;
}

struct Origin {
  std::string via;
  Range at;
};

class ImportWalker {
public:
  ImportWalker(const ParsedTu& tu, const LintEnv& env) : tu_(tu), env_(env) {}

  std::vector<ShimImport> run() {
    // Roots: what the compiler emits whether or not anything calls it.
    struct Visitor final : CursorVisitor {
      ImportWalker* w;
      bool visit(CXCursor c, CXCursor) override { return w->visit_root(c); }
    } v;
    v.w = this;
    tu_.visit_project_cursors(v);
    while (!work_.empty()) {
      auto [def, origin] = std::move(work_.front());
      work_.pop_front();
      walk(def, origin);
    }
    std::vector<ShimImport> out;
    out.reserve(found_.size());
    for (auto& [name, imp] : found_) out.push_back(std::move(imp));
    return out;
  }

private:
  const ParsedTu& tu_;
  const LintEnv& env_;
  std::unordered_set<unsigned> walked_;  // clang_hashCursor of the definitions queued
  std::deque<std::pair<CXCursor, Origin>> work_;
  std::map<std::string, ShimImport> found_;

  bool in_stable_header(CXCursor decl) const {
    CXFile file = nullptr;
    clang_getFileLocation(clang_getCursorLocation(decl), &file, nullptr, nullptr, nullptr);
    if (!file) return false;
    const std::string name = tu_.torch_header_name(tu_.path_of(file));
    return !name.empty() && env_.classifier.classify(name) == HeaderKind::Stable;
  }

  bool is_project(CXCursor decl) const { return tu_.is_project_location(clang_getCursorLocation(decl)); }

  // A C function of the shim catalog, declared at global scope (extern "C").
  const inputs::CFunction* shim_of(CXCursor decl) const {
    if (decl.kind != CXCursor_FunctionDecl) return nullptr;
    const inputs::CFunction* fn = env_.catalog->find_c(spelling(decl));
    if (!fn || fn->is_type || fn->backend == "-") return nullptr;
    CXCursor parent = clang_getCursorSemanticParent(decl);
    while (parent.kind == CXCursor_LinkageSpec || parent.kind == CXCursor_UnexposedDecl)
      parent = clang_getCursorSemanticParent(parent);
    return parent.kind == CXCursor_TranslationUnit ? fn : nullptr;
  }

  // Namespace-level code of the project: out-of-line functions with external
  // linkage and variable initializers (the static registration objects
  // STABLE_TORCH_LIBRARY declares) are emitted; inline, static and template
  // code only when something emitted reaches it, like the headers' code.
  bool visit_root(CXCursor c) {
    switch (c.kind) {
      case CXCursor_Namespace:
      case CXCursor_LinkageSpec:
      case CXCursor_UnexposedDecl:
        return true;
      case CXCursor_VarDecl:
        visit_references(c, project_origin_of);
        return false;
      case CXCursor_FunctionDecl:
      case CXCursor_CXXMethod:
      case CXCursor_Constructor:
      case CXCursor_Destructor:
      case CXCursor_ConversionFunction:
        if (clang_isCursorDefinition(c) && !clang_Cursor_isFunctionInlined(c) &&
            clang_getCursorLinkage(c) == CXLinkage_External)
          visit_references(c, project_origin_of);
        return false;
      default:
        return false;
    }
  }

  // Calls `on(ref_cursor)` for every reference inside `c`.
  template <class F>
  void visit_references(CXCursor c, F on) {
    std::pair<ImportWalker*, F*> ctx(this, &on);
    clang_visitChildren(
        c,
        [](CXCursor x, CXCursor, CXClientData d) {
          auto* self = static_cast<std::pair<ImportWalker*, F*>*>(d);
          if (is_reference(x.kind)) (*self->second)(*self->first, x);
          return CXChildVisit_Recurse;
        },
        &ctx);
  }

  static void project_origin_of(ImportWalker& w, CXCursor c) { w.on_project_reference(c); }

  void on_project_reference(CXCursor c) {
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(ref) || clang_isInvalid(ref.kind)) return;
    Origin o;
    o.at = tu_.range_of(clang_getCursorExtent(c));
    if (in_stable_header(ref)) o.via = qualified_name(ref);
    on_reference(ref, o);
  }

  void on_reference(CXCursor ref, const Origin& origin) {
    if (!is_function_like(ref.kind)) return;
    if (const inputs::CFunction* fn = shim_of(ref)) {
      if (!found_.count(fn->name))
        found_.emplace(fn->name, ShimImport{fn->name, fn->since, fn->baseline, origin.via, origin.at});
      return;
    }
    queue_definition(ref, origin);
    // The object a constructor makes is destroyed in the same code: its
    // destructor (and the deleters it runs) is emitted there too.
    if (ref.kind == CXCursor_Constructor) {
      CXCursor cls = clang_getCursorSemanticParent(ref);
      std::pair<ImportWalker*, const Origin*> ctx(this, &origin);
      clang_visitChildren(
          cls,
          [](CXCursor c, CXCursor, CXClientData d) {
            if (c.kind != CXCursor_Destructor) return CXChildVisit_Continue;
            auto* self = static_cast<std::pair<ImportWalker*, const Origin*>*>(d);
            self->first->queue_definition(c, *self->second);
            return CXChildVisit_Break;
          },
          &ctx);
    }
  }

  void queue_definition(CXCursor decl, const Origin& origin) {
    CXCursor def = clang_getCursorDefinition(decl);
    if (clang_Cursor_isNull(def) || clang_isInvalid(def.kind) || !(in_stable_header(def) || is_project(def))) return;
    if (!walked_.insert(clang_hashCursor(def)).second) return;
    work_.emplace_back(def, origin);
  }

  void walk(CXCursor def, const Origin& origin) {
    if (is_project(def)) {
      visit_references(def, project_origin_of);
      return;
    }
    auto from_header = [&origin](ImportWalker& w, CXCursor c) {
      CXCursor ref = clang_getCursorReferenced(c);
      if (!clang_Cursor_isNull(ref) && !clang_isInvalid(ref.kind)) w.on_reference(ref, origin);
    };
    visit_references(def, from_header);
  }
};

}  // namespace

std::vector<ShimImport> predict_shim_imports(const ParsedTu& tu, const LintEnv& env) {
  return ImportWalker(tu, env).run();
}

}  // namespace torchabi::source
