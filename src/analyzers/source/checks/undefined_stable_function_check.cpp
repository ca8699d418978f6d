// source-undefined-stable-function: project code odr-uses a C++ function that
// a stable header (torch/csrc/stable/**, torch/headeronly/**) declares, but
// the TU holds no definition of it. Everything those headers declare in C++
// is header-only: no libtorch exports it, so the reference can never be
// resolved. The usual cause is including torch/csrc/stable/tensor_struct.h
// alone: Tensor::scalar_type(), device(), layout() and the typed data_ptr
// accessors are declared there and defined only in tensor_inl.h; since they
// live in a hidden-visibility namespace, linking fails with "hidden symbol
// ... isn't defined", and where not hidden the library can never be loaded.
#include <map>
#include <unordered_map>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/defining_header.h"
#include "analyzers/source/cursor_utils.h"
#include "inputs/api_catalog.h"

namespace torchabi::source::checks {

namespace {

bool is_function_kind(CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate;
}

bool in_extern_c(CXCursor decl) {
  for (CXCursor c = clang_getCursorLexicalParent(decl); !clang_Cursor_isNull(c) && !clang_isInvalid(c.kind) &&
                                                         c.kind != CXCursor_TranslationUnit;
       c = clang_getCursorLexicalParent(c))
    if (c.kind == CXCursor_LinkageSpec) return true;
  return false;
}

struct CalledFunction {
  CXCursor decl;
  Range at;
  size_t count = 0;
};

class CallCollector final : public CursorVisitor {
public:
  explicit CallCollector(const ParsedTu& tu) : tu_(tu) {}
  std::map<std::string, CalledFunction> uses;  // by USR, first use kept

  bool visit(CXCursor c, CXCursor) override {
    // sizeof/alignof operands are not evaluated: nothing there is odr-used.
    if (c.kind == CXCursor_UnaryExpr) return false;
    const bool ref = c.kind == CXCursor_DeclRefExpr || c.kind == CXCursor_MemberRefExpr;
    // Constructors are called without a DeclRefExpr naming them.
    const bool ctor_call = c.kind == CXCursor_CallExpr;
    if (!ref && !ctor_call) return true;
    CXCursor decl = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(decl) || !is_function_kind(decl.kind)) return true;
    if (ctor_call && decl.kind != CXCursor_Constructor) return true;
    if (!tu_.is_project_location(clang_getCursorLocation(c))) return true;
    const std::string usr = take(clang_getCursorUSR(decl));
    auto [it, fresh] = uses.try_emplace(usr, CalledFunction{decl, {}, 0});
    if (fresh) it->second.at = tu_.range_at(clang_getCursorLocation(c), static_cast<uint32_t>(spelling(decl).size()));
    ++it->second.count;
    return true;
  }

private:
  const ParsedTu& tu_;
};

class UndefinedStableFunctionCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    CallCollector col(ctx.tu);
    ctx.tu.visit_project_cursors(col);
    for (const auto& [usr, use] : col.uses) check(ctx, use);
  }

private:
  void check(CheckContext& ctx, const CalledFunction& use) {
    CXCursor decl = use.decl;
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(decl), &file, nullptr, nullptr, nullptr);
    if (!file) return;
    const std::string decl_file = ctx.tu.path_of(file);
    const std::string header = ctx.tu.torch_header_name(decl_file);
    if (!header.starts_with("torch/csrc/stable/") && !header.starts_with("torch/headeronly/")) return;
    // Exported C shims (torch/csrc/stable/c/shim.h) are libtorch's to define.
    const std::string name = spelling(decl);
    if (in_extern_c(decl) || ctx.env.catalog->find_c(name)) return;
    if (decl.kind != CXCursor_FunctionDecl && decl.kind != CXCursor_FunctionTemplate &&
        (clang_CXXMethod_isPureVirtual(decl) || clang_CXXMethod_isDeleted(decl)))
      return;
    // Defaulted members and instantiated templates count as defined here;
    // clang finds the explicit specializations of tensor_inl.h too.
    if (!clang_Cursor_isNull(clang_getCursorDefinition(decl))) return;

    const std::string qualified = qualified_name(decl);
    CXCursor parent = clang_getCursorSemanticParent(decl);
    const bool member = parent.kind == CXCursor_ClassDecl || parent.kind == CXCursor_StructDecl ||
                        parent.kind == CXCursor_ClassTemplate;
    const std::string needle = member ? spelling(parent) + "::" + name : name;
    // PyTorch defines everything it declares, in the declaring header or one
    // next to it; a declaration nothing on disk defines belongs to a
    // declarations-only stand-in (test headers), not to a real install.
    const DefiningHeader where = find_defining_header(decl_file, needle);
    if (where.definer.empty()) return;
    const std::string dir = header.substr(0, header.rfind('/') + 1);

    findings::Finding f;
    f.rule = "source-undefined-stable-function";
    f.location = location_of(use.at);
    f.location.symbol = qualified;
    f.message = qualified + " is declared in <" + header + "> but defined nowhere in this translation unit: "
                "the library cannot link (no libtorch exports header-only C++)";
    f.notes.push_back("declared at " + display_path(decl_file) + ":" + std::to_string(line_of(decl)));
    if (use.count > 1) f.notes.push_back("used " + std::to_string(use.count) + " times in this translation unit");
    f.notes.push_back("defined in <" + dir + where.definer + ">");
    f.help = "include <" + dir + (where.umbrella.empty() ? where.definer : where.umbrella) + ">" +
             (where.umbrella.empty() ? "" : ", which includes <" + header + "> and <" + dir + where.definer + ">");
    ctx.report(std::move(f));
  }

  static uint32_t line_of(CXCursor c) {
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), nullptr, &line, nullptr, nullptr);
    return line;
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_undefined_stable_function_check() {
  return std::make_unique<UndefinedStableFunctionCheck>();
}

}  // namespace torchabi::source::checks
