#include "analyzers/schema/registrations/kernel_writes.h"

#include "analyzers/source/cursor_utils.h"

namespace torchabi::schema {

namespace {

using source::children;
using source::spelling;

// Implicit conversions and parentheses around the expression that names the parameter.
CXCursor unwrap_implicit(CXCursor c) {
  while (c.kind == CXCursor_UnexposedExpr || c.kind == CXCursor_ParenExpr) {
    auto kids = children(c);
    if (kids.size() != 1) break;
    c = kids.front();
  }
  return c;
}

// Index of the parameter `e` names, or -1.
int parameter_named(CXCursor e, const std::vector<CXCursor>& params) {
  e = unwrap_implicit(e);
  if (e.kind != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(e);
  for (size_t i = 0; i < params.size(); ++i)
    if (clang_equalCursors(ref, params[i])) return static_cast<int>(i);
  return -1;
}

bool writes_in_place(const std::string& method) {
  return method == "mutable_data_ptr" || (method.size() > 1 && method.back() == '_' && !source::is_operator_name(method));
}

class WriteFinder {
public:
  WriteFinder(const source::ParsedTu& tu, std::vector<CXCursor> params)
      : tu_(tu), params_(std::move(params)), writes_(params_.size()) {}

  void walk(CXCursor c) {
    for (CXCursor child : children(c)) {
      if (child.kind == CXCursor_CallExpr) call(child);
      walk(child);
    }
  }
  std::vector<std::string> take() { return std::move(writes_); }

private:
  void call(CXCursor c) {
    const std::string name = spelling(c);
    auto kids = children(c);
    // recv.method(...): the callee is a member reference whose base is the parameter.
    if (!kids.empty() && unwrap_implicit(kids.front()).kind == CXCursor_MemberRefExpr) {
      auto base = children(unwrap_implicit(kids.front()));
      if (!base.empty() && writes_in_place(name))
        if (int p = parameter_named(base.front(), params_); p >= 0) record(p, spelling(params_[p]) + "." + name + "()", c);
      return;
    }
    const int n = clang_Cursor_getNumArguments(c);
    if (n < 1) return;
    const int p = parameter_named(clang_Cursor_getArgument(c, 0), params_);
    if (p < 0) return;
    const std::string param = spelling(params_[p]);
    if (name == "operator=") {
      record(p, "an assignment to '" + param + "'", c);
      return;
    }
    CXCursor callee = clang_getCursorReferenced(c);
    const std::string qualified = clang_Cursor_isNull(callee) ? "" : source::qualified_name(callee);
    if (qualified.starts_with("torch::stable::") && writes_in_place(name))
      record(p, qualified + "(" + param + (n > 1 ? ", ...)" : ")"), c);
  }

  void record(int p, const std::string& what, CXCursor at) {
    if (!writes_[p].empty()) return;
    CXFile file = nullptr;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(at), &file, &line, nullptr, nullptr);
    writes_[p] = what + (file ? " at " + tu_.path_of(file) + ":" + std::to_string(line) : "");
  }

  const source::ParsedTu& tu_;
  std::vector<CXCursor> params_;
  std::vector<std::string> writes_;
};

}  // namespace

std::optional<std::vector<std::string>> parameter_writes(const source::ParsedTu& tu, CXCursor fn) {
  CXCursor def = fn.kind == CXCursor_LambdaExpr ? fn : clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return std::nullopt;
  std::vector<CXCursor> params;
  CXCursor body = clang_getNullCursor();
  for (CXCursor c : children(def)) {
    if (c.kind == CXCursor_ParmDecl) params.push_back(c);
    if (c.kind == CXCursor_CompoundStmt) body = c;
  }
  if (clang_Cursor_isNull(body)) return std::nullopt;
  WriteFinder finder(tu, std::move(params));
  finder.walk(body);
  return finder.take();
}

}  // namespace torchabi::schema
