// Python functions registered for an op against its schema:
//   compile-fake-signature-mismatch     a fake (register_fake, impl_abstract,
//                                       a Meta impl) whose parameters do not
//                                       take the arguments as PyTorch passes them
//   compile-autograd-signature-mismatch register_autograd's setup_context and
//                                       backward against the op's arity
// PyTorch calls a Python kernel with the schema's positional arguments as
// positional ones and its keyword-only arguments by name, and leaves out an
// argument whose value is its schema default (trailing positional ones, any
// keyword-only one): a parameter must exist for each argument, in order, and
// carry the schema's default, or the call fails or computes with the wrong value.
#include <algorithm>
#include <cstdlib>

#include "analyzers/schema/compile_readiness/compile_checks.h"
#include "analyzers/schema/printer.h"

namespace torchabi::schema {

namespace {

struct ParamIssue {
  std::string text;
  bool error = true;  // false: harmless today, but misleading (a name, an unused default)
};

std::string strip_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n') out += c;
  return out;
}

// Whether Python's default `py` is the schema's `d`; nullopt when it cannot be told from the text.
std::optional<bool> same_default(const DefaultValue& d, const std::string& py_text) {
  std::string py = strip_spaces(py_text);
  std::string schema = strip_spaces(python_default(d));
  if (py == schema) return true;
  switch (d.kind) {
    case DefaultValue::Kind::None:
    case DefaultValue::Kind::True:
    case DefaultValue::Kind::False:
      return py == "None" || py == "True" || py == "False" ? std::optional<bool>(false) : std::nullopt;
    case DefaultValue::Kind::Int:
    case DefaultValue::Kind::Float: {
      char* end = nullptr;
      const double a = std::strtod(py.c_str(), &end);
      if (py.empty() || *end) return py == "None" || py == "True" || py == "False" ? std::optional<bool>(false)
                                                                                   : std::nullopt;
      const double b = std::strtod(schema.c_str(), nullptr);
      return a == b;
    }
    case DefaultValue::Kind::String: {
      auto unquote = [](std::string s) {
        if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
        return s;
      };
      if (py.empty() || (py.front() != '\'' && py.front() != '"')) return std::nullopt;
      return unquote(py) == unquote(schema);
    }
    case DefaultValue::Kind::List: {
      if (py.size() < 2 || (py.front() != '[' && py.front() != '(')) return std::nullopt;
      std::string inner = py.substr(1, py.size() - 2);
      if (!inner.empty() && inner.back() == ',') inner.pop_back();
      return inner == schema.substr(1, schema.size() - 2);
    }
    default:
      return std::nullopt;
  }
}

std::string param_text(size_t i, const PyParam& p) {
  return "parameter " + std::to_string(i + 1) + " '" + p.name + "'";
}

void compare_defaults(const Argument& a, const PyParam& p, size_t i, std::vector<ParamIssue>& issues) {
  if (a.default_value && !p.default_text) {
    issues.push_back({param_text(i, p) + " has no default, but the schema's '" + a.name + "' defaults to " +
                      python_default(*a.default_value) + ": PyTorch leaves the argument out when a call passes the "
                      "default, and the fake then fails"});
  } else if (a.default_value && p.default_text) {
    if (same_default(*a.default_value, *p.default_text) == std::optional<bool>(false))
      issues.push_back({param_text(i, p) + " defaults to " + *p.default_text + ", but the schema's '" + a.name +
                        "' defaults to " + python_default(*a.default_value) +
                        ": a call passing the default computes the fake's output with the fake's value"});
  } else if (!a.default_value && p.default_text && *p.default_text == "None" && !a.type.is_optional()) {
    issues.push_back({param_text(i, p) + " defaults to None, but the schema's '" + a.name + "' (" +
                          to_string(a.type) + ") is neither optional nor defaulted",
                      false});
  }
  if (a.type.is_optional() && !p.annotation.empty() && p.annotation.find("Optional") == std::string::npos &&
      p.annotation.find("None") == std::string::npos)
    issues.push_back({param_text(i, p) + " is annotated " + p.annotation + ", but the schema's '" + a.name +
                          "' is optional (" + to_string(a.type) + "): it may receive None",
                      false});
}

std::vector<ParamIssue> compare_fake(const PyFunction& fn, const FunctionSchema& s) {
  std::vector<ParamIssue> issues;
  std::vector<const Argument*> positional, keyword;
  for (const Argument& a : s.arguments) (a.kwarg_only ? keyword : positional).push_back(&a);
  std::vector<std::pair<size_t, const PyParam*>> pos_params, kw_params;
  for (size_t i = 0; i < fn.params.size(); ++i)
    (fn.params[i].keyword_only ? kw_params : pos_params).emplace_back(i, &fn.params[i]);
  auto schema_index = [&](const std::string& name) -> int {
    for (size_t i = 0; i < s.arguments.size(); ++i)
      if (s.arguments[i].name == name) return static_cast<int>(i);
    return -1;
  };
  // Positional arguments, one for one.
  if (pos_params.size() < positional.size() && !fn.varargs) {
    // the first positional argument with no parameter
    const Argument& a = *positional[pos_params.size()];
    bool by_name = std::any_of(kw_params.begin(), kw_params.end(), [&](auto& p) { return p.second->name == a.name; });
    issues.push_back({"takes " + std::to_string(pos_params.size()) + " positional parameter" +
                      (pos_params.size() == 1 ? "" : "s") + ", but the schema has " + std::to_string(positional.size()) +
                      " positional argument" + (positional.size() == 1 ? "" : "s") + "; '" + a.name + "' (" +
                      to_string(a.type) + ") has " + (by_name ? "only a keyword-only parameter" : "no parameter")});
  }
  for (size_t i = 0; i < std::min(pos_params.size(), positional.size()); ++i) {
    const Argument& a = *positional[i];
    const auto [index, p] = pos_params[i];
    if (p->name != a.name) {
      int other = schema_index(p->name);
      if (other >= 0)
        issues.push_back({param_text(index, *p) + " receives the schema's argument '" + a.name + "' (" +
                          to_string(a.type) + "), not its '" + p->name + "': the parameters are out of order"});
      else
        issues.push_back({param_text(index, *p) + " receives the schema's argument '" + a.name + "'", false});
    }
    compare_defaults(a, *p, index, issues);
  }
  // Parameters past the positional arguments receive keyword-only arguments by name, or nothing.
  std::vector<std::pair<size_t, const PyParam*>> by_name(kw_params);
  for (size_t i = positional.size(); i < pos_params.size(); ++i) by_name.push_back(pos_params[i]);
  for (const Argument* a : keyword) {
    auto it = std::find_if(by_name.begin(), by_name.end(), [&](auto& p) { return p.second->name == a->name; });
    if (it == by_name.end()) {
      if (!fn.varkw)
        issues.push_back({"has no parameter named '" + a->name + "', the schema's keyword-only argument (" +
                          to_string(a->type) + "): PyTorch passes it by that name"});
      continue;
    }
    compare_defaults(*a, *it->second, it->first, issues);
  }
  for (const auto& [index, p] : by_name) {
    if (schema_index(p->name) >= 0 &&
        std::any_of(keyword.begin(), keyword.end(), [&](const Argument* a) { return a->name == p->name; }))
      continue;
    if (p->default_text)
      issues.push_back({param_text(index, *p) + " matches no argument of the schema: it always takes its default", false});
    else
      issues.push_back({param_text(index, *p) + " matches no argument of the schema and has no default: every call "
                        "fails"});
  }
  return issues;
}

void report_issues(RegistrationContext& ctx, const char* rule, const PyOpRegistration& r, const PyFunction& fn,
                   const std::string& op, const FunctionSchema& s, std::vector<ParamIssue> issues,
                   const std::string& role, const std::string& help) {
  if (issues.empty()) return;
  std::stable_partition(issues.begin(), issues.end(), [](const ParamIssue& i) { return i.error; });
  findings::Finding f;
  f.rule = rule;
  f.location = fn.where;
  if (f.location.file.empty()) f.location = r.where;
  f.message = role + " '" + fn.name + "' of '" + op + "' does not match its schema: " + issues.front().text;
  for (size_t i = 1; i < issues.size(); ++i) f.notes.push_back(issues[i].text);
  f.notes.push_back("schema: " + to_string(s));
  f.notes.push_back("registered with " + r.api + " at " + r.where.file_line());
  if (!issues.front().error) f.severity = findings::Severity::Note;
  f.help = help;
  ctx.report(std::move(f));
}

size_t tensor_outputs(const FunctionSchema& s) { return s.returns.size(); }

void check_autograd(RegistrationContext& ctx, const PyOpRegistration& r, const std::string& op,
                    const FunctionSchema& s) {
  const std::string help_sc = "def setup_context(ctx, inputs, output): save what backward needs on ctx";
  if (r.setup_context && !r.setup_context->varargs && r.setup_context->params.size() != 3) {
    const size_t n = r.setup_context->params.size();
    report_issues(ctx, "compile-autograd-signature-mismatch", r, *r.setup_context, op, s,
                  {{"takes " + std::to_string(n) + " parameter" + (n == 1 ? "" : "s") +
                    ", but PyTorch calls setup_context(ctx, inputs, output)"}},
                  "setup_context", help_sc);
  }
  if (!r.backward) return;
  std::vector<ParamIssue> issues;
  const PyFunction& bw = *r.backward;
  const size_t outputs = tensor_outputs(s), params = bw.params.size();
  if (!bw.varargs && params != outputs + 1)
    issues.push_back({"takes " + std::to_string(params) + " parameter" + (params == 1 ? "" : "s") +
                      ", but PyTorch calls backward(ctx, " + (outputs == 1 ? "grad" : "one gradient per output") +
                      "): the schema has " + std::to_string(outputs) + " output" + (outputs == 1 ? "" : "s")});
  const size_t inputs = s.arguments.size();
  for (int returned : bw.returned_tuples) {
    if (returned < 0 || static_cast<size_t>(returned) == inputs || (inputs == 1 && returned == 1)) continue;
    issues.push_back({"returns " + std::to_string(returned) + " gradient" + (returned == 1 ? "" : "s") +
                      ", but the schema has " + std::to_string(inputs) + " input" + (inputs == 1 ? "" : "s") +
                      " (one gradient, or None, per input)"});
    break;
  }
  report_issues(ctx, "compile-autograd-signature-mismatch", r, bw, op, s, std::move(issues), "backward",
                "def backward(ctx, " + std::string(outputs == 1 ? "grad" : "*grads") +
                    ") returning one gradient (or None) per input of the schema, in order");
}

}  // namespace

void check_python_signatures(RegistrationContext& ctx, const OpCatalog& catalog) {
  for (const PyOpRegistration& r : ctx.env.python_ops.registrations) {
    using K = PyOpRegistration::Kind;
    if (r.op.empty()) continue;
    const CatalogOp* op = catalog.find(r.op);
    if (!op || !op->schema) continue;
    if ((r.kind == K::Fake || r.kind == K::Meta) && r.function && !(r.function->varargs && r.function->varkw)) {
      report_issues(ctx, "compile-fake-signature-mismatch", r, *r.function, op->qualified, *op->schema,
                    compare_fake(*r.function, *op->schema), "fake",
                    "take the schema's arguments as PyTorch passes them, with the schema's defaults: " +
                        fake_stub(*op->schema));
    } else if (r.kind == K::Autograd) {
      check_autograd(ctx, r, op->qualified, *op->schema);
    }
  }
}

}  // namespace torchabi::schema
