#include "analyzers/schema/compile_readiness/kernel_flow.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "analyzers/source/cursor_utils.h"

namespace torchabi::schema {

namespace {

using source::children;
using source::spelling;

constexpr size_t kWritesKept = 4;

// Implicit conversions, parentheses and copy or move constructions around a value.
CXCursor flow_unwrap(CXCursor c) {
  for (;;) {
    if (c.kind != CXCursor_UnexposedExpr && c.kind != CXCursor_ParenExpr && c.kind != CXCursor_CallExpr) break;
    if (c.kind == CXCursor_CallExpr) {
      CXCursor ref = clang_getCursorReferenced(c);
      if (clang_Cursor_isNull(ref) || clang_getCursorKind(ref) != CXCursor_Constructor) break;
    }
    auto kids = children(c);
    if (kids.size() != 1) break;
    c = kids.front();
  }
  return c;
}

// Methods of a tensor handle that read it: sizes, dtype, a const pointer.
// Anything else called on a parameter either writes it (a name ending in
// '_', mutable_data_ptr) or may (data_ptr hands out a writable pointer).
bool reads_only(const std::string& method) {
  static const std::set<std::string> kRead = {
      "sizes", "size", "dim", "numel", "strides", "stride", "scalar_type", "dtype", "device", "device_index",
      "device_type", "is_contiguous", "const_data_ptr", "defined", "is_cuda", "is_cpu", "get_device",
      "get_device_index", "element_size", "storage_offset", "layout", "get", "is_sparse", "use_count",
      "numel_", "options", "is_floating_point", "item", "to"};
  return kRead.count(method) > 0;
}

bool in_place_name(const std::string& name) {
  return name.size() > 1 && name.back() == '_' && !source::is_operator_name(name);
}

class FlowFinder {
public:
  FlowFinder(const source::ParsedTu& tu, std::vector<CXCursor> params) : tu_(tu), params_(std::move(params)) {
    flow_.writes.resize(params_.size());
    flow_.escapes.assign(params_.size(), false);
  }

  void walk(CXCursor c, bool const_pointer_init) {
    for (CXCursor child : children(c)) {
      bool const_init = const_pointer_init;
      if (child.kind == CXCursor_VarDecl) {
        CXType t = clang_getCursorType(child);
        const_init = t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
      }
      if (child.kind == CXCursor_CallExpr) call(child, const_init);
      if (child.kind == CXCursor_ReturnStmt) returned(child);
      if (child.kind == CXCursor_DeclRefExpr) reference(child);
      walk(child, const_init);
    }
  }

  KernelFlow take() {
    for (const auto& [key, p] : refs_)
      if (!accounted_.count(key)) flow_.escapes[p] = true;
    return std::move(flow_);
  }

private:
  int param_of(CXCursor e) const {
    e = flow_unwrap(e);
    // param.get(): the handle of the parameter, as the C shim takes it
    if (e.kind == CXCursor_CallExpr && spelling(e) == "get") {
      auto kids = children(e);
      if (!kids.empty() && flow_unwrap(kids.front()).kind == CXCursor_MemberRefExpr) {
        auto base = children(flow_unwrap(kids.front()));
        if (!base.empty()) return param_of(base.front());
      }
      return -1;
    }
    if (e.kind != CXCursor_DeclRefExpr) return -1;
    CXCursor ref = clang_getCursorReferenced(e);
    for (size_t i = 0; i < params_.size(); ++i)
      if (clang_equalCursors(ref, params_[i])) return static_cast<int>(i);
    return -1;
  }

  // The DeclRefExpr under `e` naming a parameter, marked as a use the checks understood.
  void account(CXCursor e) {
    e = flow_unwrap(e);
    if (e.kind == CXCursor_DeclRefExpr) accounted_.insert(key_of(e));
  }

  void call(CXCursor c, bool const_pointer_init) {
    const std::string name = spelling(c);
    auto kids = children(c);
    // recv.method(...)
    if (!kids.empty() && flow_unwrap(kids.front()).kind == CXCursor_MemberRefExpr) {
      auto base = children(flow_unwrap(kids.front()));
      if (base.empty()) return;
      const int p = param_of(base.front());
      if (p < 0) return;
      if (in_place_name(name) || (name == "mutable_data_ptr" && !const_pointer_init)) {
        record(p, spelling(params_[p]) + "." + name + "()", c);
        account(base.front());
      } else if (reads_only(name) || name == "mutable_data_ptr") {
        account(base.front());
      }
      return;
    }
    CXCursor callee = clang_getCursorReferenced(c);
    const std::string qualified = clang_Cursor_isNull(callee) ? name : source::qualified_name(callee);
    const bool stable_op = qualified.starts_with("torch::stable::");
    const bool shim = name.starts_with("aoti_torch_");
    const int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; ++i) {
      CXCursor a = clang_Cursor_getArgument(c, i);
      const int p = param_of(a);
      if (p < 0) continue;
      const std::string param = spelling(params_[p]);
      // In-place stable ops and C shims write their first argument, and so do
      // out-variants (torch::stable::sum_out(out, ...), aoti_torch_cpu_add_out(out, ...)).
      const bool writes_first = in_place_name(name) || name.ends_with("_out") ||
                                (shim && name.find("__") != std::string::npos);  // aoti_torch_fill__Scalar
      if (i == 0 && (stable_op || shim) && writes_first) {
        record(p, qualified + "(" + param + (n > 1 ? ", ...)" : ")"), c);
        account(a);
      } else if (stable_op && !in_place_name(name) && !name.ends_with("_out")) {
        account(a);  // a functional stable op reads its inputs
      }
    }
  }

  void returned(CXCursor r) {
    auto kids = children(r);
    if (kids.empty()) return;
    CXCursor e = flow_unwrap(kids.front());
    if (int p = param_of(e); p >= 0) {
      flow_.returns.push_back({static_cast<size_t>(p), "", location(r)});
      return;
    }
    if (e.kind != CXCursor_CallExpr) return;
    const std::string name = spelling(e);
    auto ekids = children(e);
    if (!ekids.empty() && flow_unwrap(ekids.front()).kind == CXCursor_MemberRefExpr) {
      auto base = children(flow_unwrap(ekids.front()));
      if (!base.empty())
        if (int p = param_of(base.front()); p >= 0)
          flow_.returns.push_back({static_cast<size_t>(p), spelling(params_[p]) + "." + name, location(r)});
      return;
    }
    if (clang_Cursor_getNumArguments(e) < 1) return;
    if (int p = param_of(clang_Cursor_getArgument(e, 0)); p >= 0) {
      CXCursor callee = clang_getCursorReferenced(e);
      std::string via = clang_Cursor_isNull(callee) ? name : source::qualified_name(callee);
      if (via == "std::move" || via == "std::forward") via.clear();  // the parameter itself
      flow_.returns.push_back({static_cast<size_t>(p), via, location(r)});
    }
  }

  void reference(CXCursor e) {
    if (int p = param_of(e); p >= 0) refs_.emplace(key_of(e), p);
  }

  static std::string key_of(CXCursor e) {
    CXFile file = nullptr;
    unsigned line = 0, column = 0, offset = 0;
    clang_getSpellingLocation(clang_getCursorLocation(e), &file, &line, &column, &offset);
    return std::to_string(offset) + ":" + std::to_string(clang_hashCursor(e));
  }

  findings::Location location(CXCursor at) const {
    findings::Location l;
    CXFile file = nullptr;
    unsigned line = 0, column = 0;
    clang_getExpansionLocation(clang_getCursorLocation(at), &file, &line, &column, nullptr);
    if (file) l.file = tu_.path_of(file);
    l.line = line;
    l.column = column;
    return l;
  }

  void record(int p, const std::string& what, CXCursor at) {
    auto& list = flow_.writes[p];
    if (list.size() < kWritesKept) list.push_back({what, location(at)});
  }

  const source::ParsedTu& tu_;
  std::vector<CXCursor> params_;
  KernelFlow flow_;
  std::map<std::string, int> refs_;  // every reference to a parameter
  std::set<std::string> accounted_;  // the ones a read or write above explains
};

nlohmann::json flow_location(const findings::Location& l) { return {l.file, l.line, l.column}; }
findings::Location flow_location(const nlohmann::json& j) {
  findings::Location l;
  l.file = j.at(0).get<std::string>();
  l.line = j.at(1).get<uint32_t>();
  l.column = j.at(2).get<uint32_t>();
  return l;
}

}  // namespace

std::optional<KernelFlow> kernel_flow(const source::ParsedTu& tu, CXCursor fn) {
  CXCursor def = fn.kind == CXCursor_LambdaExpr ? fn : clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return std::nullopt;
  std::vector<CXCursor> params;
  CXCursor body = clang_getNullCursor();
  for (CXCursor c : children(def)) {
    if (c.kind == CXCursor_ParmDecl) params.push_back(c);
    if (c.kind == CXCursor_CompoundStmt) body = c;
  }
  if (clang_Cursor_isNull(body)) return std::nullopt;
  FlowFinder finder(tu, std::move(params));
  finder.walk(body, false);
  return finder.take();
}

void to_json(nlohmann::json& j, const KernelFlow& f) {
  nlohmann::json writes = nlohmann::json::array();
  for (const auto& list : f.writes) {
    nlohmann::json one = nlohmann::json::array();
    for (const auto& w : list) one.push_back({w.what, flow_location(w.where)});
    writes.push_back(std::move(one));
  }
  nlohmann::json returns = nlohmann::json::array();
  for (const auto& r : f.returns) returns.push_back({r.param, r.via, flow_location(r.where)});
  j = {{"writes", std::move(writes)}, {"escapes", f.escapes}, {"returns", std::move(returns)}};
}

void from_json(const nlohmann::json& j, KernelFlow& f) {
  f.writes.clear();
  for (const auto& list : j.at("writes")) {
    f.writes.emplace_back();
    for (const auto& w : list) f.writes.back().push_back({w.at(0).get<std::string>(), flow_location(w.at(1))});
  }
  f.escapes = j.at("escapes").get<std::vector<bool>>();
  f.returns.clear();
  for (const auto& r : j.at("returns"))
    f.returns.push_back({r.at(0).get<size_t>(), r.at(1).get<std::string>(), flow_location(r.at(2))});
}

}  // namespace torchabi::schema
