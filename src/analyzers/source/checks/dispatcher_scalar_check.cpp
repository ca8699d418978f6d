// source-dispatcher-scalar-arg: a call of an ATen operator through the
// dispatcher by name (torch_call_dispatcher / aoti_torch_call_dispatcher)
// whose schema takes a Scalar (Scalar, Scalar?, Scalar[]).
//
// Arguments travel on a stack of StableIValue, and StableIValue has no
// Scalar representation: whatever the extension puts in that slot, the
// conversion to the operator's IValue fails when the call runs. The call
// compiles and links, so only running that path finds it.
//
// The operator and overload names must be string literals; the schemas are
// rules/schema/aten_ops.tsv (ATen's native_functions.yaml).
#include <cctype>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/cursor_utils.h"

namespace torchabi::source::checks {

namespace {

bool is_dispatcher_call(const std::string& name) {
  return name == "torch_call_dispatcher" || name == "aoti_torch_call_dispatcher";
}

// The argument's expression without implicit conversions (array decay).
CXCursor unwrapped(CXCursor e) {
  while (e.kind == CXCursor_UnexposedExpr || e.kind == CXCursor_ParenExpr) {
    std::optional<CXCursor> only;
    clang_visitChildren(
        e,
        [](CXCursor c, CXCursor, CXClientData d) {
          *static_cast<std::optional<CXCursor>*>(d) = c;
          return CXChildVisit_Continue;
        },
        &only);
    if (!only) break;
    e = *only;
  }
  return e;
}

// "aten::full" -> aten::full; nullopt unless a plain string literal.
std::optional<std::string> literal(CXCursor e) {
  e = unwrapped(e);
  if (e.kind != CXCursor_StringLiteral) return std::nullopt;
  std::string s = spelling(e);
  if (s.size() < 2 || s.front() != '"' || s.back() != '"' || s.find('\\') != std::string::npos) return std::nullopt;
  return s.substr(1, s.size() - 2);
}

struct SchemaArg {
  std::string type;
  std::string name;
};

// The arguments of "full(SymInt[] size, Scalar fill_value, *, ...) -> Tensor".
std::vector<SchemaArg> schema_arguments(const std::string& schema) {
  std::vector<SchemaArg> out;
  const size_t open = schema.find('(');
  if (open == std::string::npos) return out;
  int depth = 0;
  std::string cur;
  auto flush = [&] {
    std::string a = cur.substr(0, cur.find('='));
    while (!a.empty() && std::isspace(static_cast<unsigned char>(a.back()))) a.pop_back();
    const size_t sp = a.rfind(' ');
    if (sp != std::string::npos) out.push_back({a.substr(a.find_first_not_of(' '), sp - a.find_first_not_of(' ')), a.substr(sp + 1)});
    cur.clear();
  };
  for (size_t i = open + 1; i < schema.size(); ++i) {
    const char c = schema[i];
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && depth-- == 0) {
      flush();
      break;
    }
    if (c == ',' && depth == 0) flush();
    else cur += c;
  }
  return out;
}

bool is_scalar_type(const std::string& t) {
  return t.starts_with("Scalar") && (t.size() == 6 || t[6] == '?' || t[6] == '[');
}

class Calls final : public CursorVisitor {
public:
  std::vector<CXCursor> found;
  bool visit(CXCursor c, CXCursor) override {
    if (c.kind == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 3) {
      CXCursor fn = clang_getCursorReferenced(c);
      if (fn.kind == CXCursor_FunctionDecl && is_dispatcher_call(spelling(fn))) found.push_back(c);
    }
    return true;
  }
};

class DispatcherScalarCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    Calls calls;
    ctx.tu.visit_project_cursors(calls);
    for (CXCursor call : calls.found) {
      const CXCursor op_arg = clang_Cursor_getArgument(call, 0);
      auto op = literal(op_arg);
      auto overload = literal(clang_Cursor_getArgument(call, 1));
      if (!op || !overload || !op->starts_with("aten::")) continue;
      const std::string base = op->substr(6);
      const std::string key = overload->empty() ? base : base + "." + *overload;
      const inputs::AtenOp* aten = ctx.env.aten_ops.find(key);
      if (!aten) continue;
      std::vector<SchemaArg> scalars;
      for (auto& a : schema_arguments(aten->schema))
        if (is_scalar_type(a.type)) scalars.push_back(a);
      if (scalars.empty()) continue;
      report(ctx, call, op_arg, *op, *overload, key, *aten, scalars);
    }
  }

private:
  static void report(CheckContext& ctx, CXCursor call, CXCursor op_arg, const std::string& op,
                     const std::string& overload, const std::string& key, const inputs::AtenOp& aten,
                     const std::vector<SchemaArg>& scalars) {
    const std::string fn = spelling(clang_getCursorReferenced(call));
    std::string args;
    for (size_t i = 0; i < scalars.size(); ++i)
      args += (i == 0 ? "" : i + 1 == scalars.size() ? " and " : ", ") + scalars[i].name + " (" + scalars[i].type + ")";
    findings::Finding f;
    f.rule = "source-dispatcher-scalar-arg";
    f.location = location_of(ctx.tu.range_of(clang_getCursorExtent(unwrapped(op_arg))));
    f.location.symbol = "aten::" + key;
    f.message = fn + "(\"" + op + "\", \"" + overload + "\", ...): aten::" + key + " takes " + args +
                ", and StableIValue has no Scalar representation; the call fails when it runs";
    f.notes.push_back("schema (PyTorch " + ctx.env.aten_ops.release() + "): " + aten.schema);
    const std::string base = key.substr(0, key.find('.'));
    const StableApi* typed = ctx.env.stable_apis.find("torch::stable::" + base);
    f.help = typed ? "Call torch::stable::" + base + " (PyTorch " + typed->since_label() +
                         ") instead: it passes the value typed, through the C shim."
                   : "Use a typed stable op instead (e.g. torch::stable::new_empty and torch::stable::fill_ for a "
                     "filled tensor), or an overload of aten::" + base + " that takes the value as a Tensor or float.";
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_dispatcher_scalar_check() { return std::make_unique<DispatcherScalarCheck>(); }

}  // namespace torchabi::source::checks
