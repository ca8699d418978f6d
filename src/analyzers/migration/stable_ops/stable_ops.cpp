#include "analyzers/migration/stable_ops/stable_ops.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <sstream>

#include "analyzers/migration/stable_ops/op_schema.h"
#include "common/input_error.h"
#include "common/text.h"
#include "inputs/rules_source.h"

namespace torchabi::migration::stable_ops {

namespace {

constexpr const char* kRulesFile = "api/stable_ops.yaml";
constexpr std::string_view kFirstLine = "// stable_ops.h: written by `torchabi migrate --fix`";
constexpr std::string_view kKeyMarker = "// op: ";
constexpr const char* kTensor = "torch::stable::Tensor";

// Schema argument names that are C++ keywords get a trailing underscore.
std::string cpp_name(const std::string& name) {
  static const std::set<std::string> keywords = {"and", "auto", "bool", "case", "char", "class", "default", "delete",
                                                 "double", "float", "int", "long", "new", "not", "operator", "or",
                                                 "register", "return", "short", "signed", "struct", "switch",
                                                 "template", "this", "union", "unsigned", "xor", "export", "module"};
  return keywords.count(name) ? name + "_" : name;
}

bool is_number(std::string_view s) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  bool digit = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) digit = true;
    else if (c != '.' && c != 'e' && c != 'E' && c != '-' && c != '+') return false;
  }
  return digit;
}

std::string version_name(const TorchVersion& v) { return v.str(); }

}  // namespace

Generator Generator::load(const inputs::RulesSource& rules) {
  return parse(inputs::AtenOps::load(rules), rules.require(kRulesFile), "rules/" + std::string(kRulesFile));
}

Generator Generator::parse(inputs::AtenOps ops, std::string_view yaml, const std::string& origin) {
  Generator g;
  g.ops_ = std::move(ops);
  auto since = [&](const YAML::Node& n, const std::string& what) {
    auto v = n ? TorchVersion::parse_dotted(n.as<std::string>("")) : std::nullopt;
    if (!v) throw InputError(origin, what + ": 'since' is not a release");
    return *v;
  };
  try {
    const YAML::Node root = YAML::Load(std::string(yaml));
    const YAML::Node conv = root["conversions"];
    if (!conv || !conv.IsSequence()) throw InputError(origin, "expected a 'conversions' list");
    for (const auto& c : conv) {
      const std::string schema = c["schema"].as<std::string>("");
      const std::string cpp = c["cpp"].as<std::string>("");
      if (schema.empty() || cpp.empty()) throw InputError(origin, "a conversion needs schema and cpp");
      g.conversions_[schema] = {cpp, since(c["since"], "conversion " + schema)};
    }
    g.list_since_ = since(root["list_since"], "list_since");
    if (const YAML::Node d = root["named_defaults"]; d && d.IsSequence())
      for (const auto& n : d) g.named_defaults_[{n["schema"].as<std::string>(""), n["value"].as<std::string>("")}] = n["cpp"].as<std::string>("");
    const YAML::Node comps = root["compositions"];
    if (!comps || !comps.IsSequence()) throw InputError(origin, "expected a 'compositions' list");
    for (const auto& c : comps) {
      Helper h;
      h.key = c["key"].as<std::string>("");
      h.text = c["text"].as<std::string>("");
      const std::string why = c["why"].as<std::string>("");
      h.why = std::string(text::trim(why));
      if (h.key.empty() || h.text.empty() || h.why.empty())
        throw InputError(origin, "composition '" + h.key + "' needs key, text and why");
      h.since = since(c["since"], "composition " + h.key);
      if (const YAML::Node u = c["uses"]; u && u.IsSequence())
        for (const auto& x : u) h.uses.push_back(x.as<std::string>());
      h.name = h.key.substr(0, h.key.find('.'));
      // A composition of an operator takes what its schema's positional
      // arguments are (the Scalars as doubles, same defaults).
      if (h.key != h.name || g.ops_.find(h.key)) {
        const inputs::AtenOp* op = g.ops_.find(h.key);
        if (!op) throw InputError(origin, "composition '" + h.key + "' is not an ATen operator of " + g.ops_.release());
        auto s = parse_op_schema(op->schema);
        if (!s) throw InputError(origin, "composition '" + h.key + "': unreadable schema");
        h.max_written = s->arguments.size();
        for (const auto& a : s->arguments)
          if (!a.default_value) ++h.min_written;
      }
      g.compositions_[h.key] = std::move(h);
    }
    for (const auto& [list, into] : {std::pair{"both_sides", &g.scalar_both_}, std::pair{"right_side", &g.scalar_right_}})
      if (const YAML::Node n = root["scalar_operands"][list]; n && n.IsSequence())
        for (const auto& x : n) into->insert(x.as<std::string>());
  } catch (const YAML::Exception& e) {
    throw InputError(origin, std::string("not valid YAML: ") + e.what());
  }
  for (const auto& c : g.compositions_)
    for (const auto& u : c.second.uses)
      if (!g.helper(u))
        throw InputError(origin, "composition '" + c.first + "' uses '" + u + "', which has no helper");
  for (const auto* set : {&g.scalar_both_, &g.scalar_right_})
    for (const auto& k : *set)
      if (!g.compositions_.count(k) && !g.boxed(k))
        throw InputError(origin, "scalar operands of '" + k + "', which has no helper");
  if (!g.compositions_.count("scalar_like")) throw InputError(origin, "expected the composition 'scalar_like'");
  return g;
}

// A schema type as the C++ type of a helper's parameter or result; raises
// `since` to the release its StableIValue conversion needs. nullopt when no
// StableIValue carries it (Scalar, Tensor?[]).
std::optional<std::string> Generator::cpp_type(const SchemaType& t, TorchVersion& since) const {
  auto it = conversions_.find(t.base);
  if (it == conversions_.end() || t.element_optional) return std::nullopt;
  if (since < it->second.since) since = it->second.since;
  std::string c = it->second.cpp;
  if (t.list) {
    c = "std::vector<" + c + ">";
    if (since < list_since_) since = list_since_;
  }
  if (t.optional) c = "std::optional<" + c + ">";
  return c;
}

// A schema default as C++, nullopt when it has no spelling here.
std::optional<std::string> Generator::cpp_default(const SchemaArgument& a) const {
  const std::string& v = *a.default_value;
  if (v == "None") return a.type.optional ? std::optional<std::string>("std::nullopt") : std::nullopt;
  if (a.type.list) {
    if (a.type.base != "int" && a.type.base != "SymInt") return std::nullopt;
    if (v.size() >= 2 && v.front() == '[' && v.back() == ']') {
      std::string items;
      const std::string inner = v.substr(1, v.size() - 2);
      for (const auto& x : text::split(inner, ','))
        if (!text::trim(x).empty()) {
          if (!is_number(text::trim(x))) return std::nullopt;
          items += (items.empty() ? "" : ", ") + std::string(text::trim(x));
        }
      return "{" + items + "}";
    }
    if (is_number(v)) return "{" + v + "}";  // int[1] dim=1 is [1]
    return std::nullopt;
  }
  const std::string& b = a.type.base;
  if (b == "bool") return v == "True" ? "true" : v == "False" ? std::optional<std::string>("false") : std::nullopt;
  // A Scalar's parameter is a double (scalar_overloads): its default is the number.
  if (b == "int" || b == "SymInt" || b == "DeviceIndex" || b == "float" || b == "Scalar")
    return is_number(v) ? std::optional<std::string>(v) : std::nullopt;
  if (b == "str" && v.size() >= 2 && (v.front() == '\'' || v.front() == '"'))
    return "\"" + v.substr(1, v.size() - 2) + "\"";
  if (auto it = named_defaults_.find({b, v}); it != named_defaults_.end()) return it->second;
  return std::nullopt;
}

// The parameter list of a helper of `schema`: C++ defaults are trailing, so one
// parameter without one ends them. `scalar_as_double` types a Scalar as double.
std::optional<std::vector<std::string>> Generator::parameters(const OpSchema& schema, bool scalar_as_double,
                                                               Helper& h) const {
  std::vector<std::string> params;
  std::vector<std::optional<std::string>> defaults;
  for (const auto& a : schema.arguments) {
    std::optional<std::string> t;
    if (scalar_as_double && a.type.base == "Scalar" && !a.type.list)
      t = a.type.optional ? "std::optional<double>" : "double";
    else
      t = cpp_type(a.type, h.since);
    if (!t) return std::nullopt;
    const bool by_value = !a.type.list && !a.type.optional && *t != kTensor && a.type.base != "str" && a.type.base != "Device";
    params.push_back((by_value ? *t : "const " + *t + "&") + " " + cpp_name(a.name));
    defaults.push_back(a.default_value ? cpp_default(a) : std::nullopt);
  }
  bool trailing = true;
  h.min_written = 0;
  for (size_t i = params.size(); i-- > 0;) {
    if (!defaults[i]) trailing = false;
    if (trailing) params[i] += " = " + *defaults[i];
    else ++h.min_written;
  }
  h.max_written = params.size();
  return params;
}

// The helper that boxes the schema's arguments and calls the dispatcher.
std::optional<Helper> Generator::boxed(const std::string& key) const {
  const inputs::AtenOp* op = ops_.find(key);
  if (!op) return std::nullopt;
  auto schema = parse_op_schema(op->schema);
  if (!schema) return std::nullopt;
  Helper h;
  h.key = key;
  h.name = schema->name;
  h.since = *TorchVersion::parse_dotted("2.9");
  auto params = parameters(*schema, false, h);
  if (!params) return std::nullopt;
  std::vector<std::string> boxes;
  for (const auto& a : schema->arguments) boxes.push_back("torch::stable::detail::from(" + cpp_name(a.name) + ")");
  std::vector<std::string> rets;
  for (const auto& r : schema->returns) {
    auto t = cpp_type(r, h.since);
    if (!t || r.optional) return std::nullopt;
    rets.push_back(*t);
  }
  std::string ret_type = rets.empty() ? "void" : rets.size() == 1 ? rets[0] : "std::tuple<" + text::join(rets, ", ") + ">";
  const size_t slots = std::max<size_t>({params->size(), rets.size(), 1});

  std::ostringstream o;
  o << "// aten::" << op->schema << "\n";
  o << "inline " << ret_type << " " << h.name << "(" << text::join(*params, ", ") << ") {\n";
  o << "  std::array<StableIValue, " << slots << "> stack{" << text::join(boxes, ", ") << "};\n";
  o << "  detail::call_dispatcher(\"aten::" << schema->name << "\", \"" << schema->overload << "\", stack.data());\n";
  if (rets.size() == 1) {
    o << "  return torch::stable::detail::to<" << rets[0] << ">(stack[0]);\n";
  } else if (rets.size() > 1) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < rets.size(); ++i)
      parts.push_back("torch::stable::detail::to<" + rets[i] + ">(stack[" + std::to_string(i) + "])");
    o << "  return " << ret_type << "(" << text::join(parts, ", ") << ");\n";
  }
  o << "}\n";
  h.text = o.str();
  return h;
}

// An overload that takes Scalars (pow.Tensor_Scalar, clamp, fill_.Scalar) has
// no StableIValue for them, but usually a sibling overload of the same
// operator takes Tensors in those places (pow.Tensor_Tensor, clamp.Tensor,
// fill_.Tensor) and computes the same: the helper takes doubles and passes
// each as a 0-dim tensor of the first tensor argument's dtype and device
// (scalar_like), which type promotion treats as the number. Operators whose
// number overloads are the operator helpers' (scalar_operands) are left to those.
std::optional<Helper> Generator::through_tensor_overload(const std::string& key) const {
  const inputs::AtenOp* op = ops_.find(key);
  if (!op) return std::nullopt;
  auto schema = parse_op_schema(op->schema);
  if (!schema) return std::nullopt;
  std::vector<size_t> scalars;
  std::optional<std::string> like;
  for (size_t i = 0; i < schema->arguments.size(); ++i) {
    const SchemaType& t = schema->arguments[i].type;
    if (t.base == "Scalar" && !t.list) scalars.push_back(i);
    else if (!like && t.base == "Tensor" && !t.list && !t.optional) like = cpp_name(schema->arguments[i].name);
  }
  if (scalars.empty() || !like) return std::nullopt;
  auto same_type = [](const SchemaType& a, const SchemaType& b) {
    return a.base == b.base && a.list == b.list && a.optional == b.optional && a.element_optional == b.element_optional &&
           a.mutated == b.mutated;
  };
  std::optional<std::string> sibling;
  for (const auto& o : ops_.overloads_of(schema->name)) {
    if (o == key || scalar_both_.count(o) || scalar_right_.count(o)) continue;
    const inputs::AtenOp* other = ops_.find(o);
    auto s = other ? parse_op_schema(other->schema) : std::nullopt;
    if (!s || s->arguments.size() != schema->arguments.size() || s->returns.size() != schema->returns.size()) continue;
    bool fits = true;
    for (size_t i = 0; fits && i < s->arguments.size(); ++i) {
      const SchemaArgument &mine = schema->arguments[i], &theirs = s->arguments[i];
      const bool scalar = std::find(scalars.begin(), scalars.end(), i) != scalars.end();
      fits = mine.name == theirs.name && mine.keyword_only == theirs.keyword_only &&
             (scalar ? theirs.type.base == "Tensor" && !theirs.type.list && theirs.type.optional == mine.type.optional
                     : same_type(mine.type, theirs.type));
    }
    for (size_t i = 0; fits && i < s->returns.size(); ++i) fits = same_type(schema->returns[i], s->returns[i]);
    if (fits && boxed(o)) {
      sibling = o;
      break;
    }
  }
  if (!sibling) return std::nullopt;
  const Helper target = *boxed(*sibling);
  Helper h;
  h.key = key;
  h.name = schema->name;
  h.since = std::max(target.since, compositions_.at("scalar_like").since);
  h.uses = {*sibling, "scalar_like"};
  auto params = parameters(*schema, true, h);
  if (!params) return std::nullopt;
  h.why = key + "'s Scalar arguments have no StableIValue: each double becomes a 0-dim tensor of " + *like +
          "'s dtype and device (scalar_like), which type promotion treats as the number, and aten::" + *sibling +
          " is called by name through the dispatcher.";
  std::vector<std::string> args;
  for (size_t i = 0; i < schema->arguments.size(); ++i) {
    const SchemaArgument& a = schema->arguments[i];
    const std::string n = cpp_name(a.name);
    if (std::find(scalars.begin(), scalars.end(), i) == scalars.end()) args.push_back(n);
    else if (a.type.optional)
      args.push_back(n + " ? std::optional<" + std::string(kTensor) + ">(scalar_like(*" + n + ", " + *like +
                     ")) : std::nullopt");
    else
      args.push_back("scalar_like(" + n + ", " + *like + ")");
  }
  const std::string ret = target.text.substr(target.text.find("inline ") + 7,
                                             target.text.find(" " + h.name + "(") - target.text.find("inline ") - 7);
  std::ostringstream o;
  o << "// aten::" << op->schema << "\n";
  o << "inline " << ret << " " << h.name << "(" << text::join(*params, ", ") << ") {\n";
  o << "  return " << h.name << "(" << text::join(args, ", ") << ");\n}\n";
  h.text = o.str();
  return h;
}

bool Generator::tensor_argument(const std::string& key, size_t position) const {
  const inputs::AtenOp* op = ops_.find(key);
  if (!op) return false;
  const auto schema = parse_op_schema(op->schema);
  if (!schema || position >= schema->arguments.size()) return false;
  const SchemaType& t = schema->arguments[position].type;
  return t.base == "Tensor" && !t.list && !t.optional;
}

std::optional<Helper> Generator::helper(const std::string& key) const {
  if (key.ends_with(kScalarSuffix)) {
    // `1 - s`, `x *= 2`: the number as a 0-dim tensor like the other operand.
    const std::string base = key.substr(0, key.size() - kScalarSuffix.size());
    const bool both = scalar_both_.count(base), right = scalar_right_.count(base);
    auto b = (both || right) ? helper(base) : std::nullopt;
    if (!b) return std::nullopt;
    Helper h;
    h.key = key;
    h.name = b->name;
    h.uses = {base, "scalar_like"};
    h.since = std::max(b->since, compositions_.at("scalar_like").since);
    h.min_written = h.max_written = 2;
    h.why = "the number becomes a 0-dim tensor of the other operand's dtype and device (scalar_like), which type "
            "promotion treats as the number; then " +
            (b->why.empty() ? "aten::" + base + " is called by name through the dispatcher, its arguments boxed in schema order."
                            : b->why);
    std::ostringstream o;
    o << "inline " << kTensor << " " << h.name << "(const " << kTensor << "& self, double other) {\n"
      << "  return " << h.name << "(self, scalar_like(other, self));\n}\n";
    if (both)
      o << "inline " << kTensor << " " << h.name << "(double self, const " << kTensor << "& other) {\n"
        << "  return " << h.name << "(scalar_like(self, other), other);\n}\n";
    h.text = o.str();
    return h;
  }
  if (auto it = compositions_.find(key); it != compositions_.end()) return it->second;
  if (auto b = boxed(key)) return b;
  return through_tensor_overload(key);
}

std::string Generator::header(const std::set<std::string>& keys) const {
  // A helper after the helpers it calls; otherwise by key.
  std::vector<Helper> order;
  std::set<std::string> placed, visiting;
  std::function<void(const std::string&)> place = [&](const std::string& k) {
    if (placed.count(k) || visiting.count(k)) return;
    auto h = helper(k);
    if (!h) return;
    visiting.insert(k);
    std::vector<std::string> uses = h->uses;
    std::sort(uses.begin(), uses.end());
    for (const auto& u : uses) place(u);
    visiting.erase(k);
    placed.insert(k);
    order.push_back(std::move(*h));
  };
  for (const auto& k : keys) place(k);

  std::ostringstream o;
  o << kFirstLine << " from the schemas of PyTorch " << ops_.release() << ".\n"
    << "// ATen operators this extension calls that torch::stable has no function for, each\n"
    << "// called by name through the dispatcher with its arguments boxed in schema order\n"
    << "// (torchabi docs/migrate.md, \"stable_ops.h\"). Later runs of --fix keep every helper\n"
    << "// listed here and add the ones new code needs: change the calls, not this file.\n"
    << "#pragma once\n\n"
    << "#include <array>\n#include <cstdint>\n#include <optional>\n#include <string>\n#include <tuple>\n#include <vector>\n\n"
    << "#include <torch/csrc/stable/c/shim.h>\n#include <torch/csrc/stable/ops.h>\n"
    << "#include <torch/csrc/stable/stableivalue_conversions.h>\n#include <torch/csrc/stable/tensor.h>\n\n"
    << "namespace " << kNamespace << " {\n\n"
    << "namespace detail {\n"
    << "// The one dispatcher call of every helper; torch_call_dispatcher (2.10) also\n"
    << "// passes the ABI version the extension was built for.\n"
    << "inline void call_dispatcher(const char* op, const char* overload, StableIValue* stack) {\n"
    << "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"
    << "  STABLE_TORCH_ERROR_CODE_CHECK(torch_call_dispatcher(op, overload, stack, TORCH_ABI_VERSION));\n"
    << "#else\n"
    << "  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_call_dispatcher(op, overload, stack));\n"
    << "#endif\n"
    << "}\n"
    << "}  // namespace detail\n";
  for (const auto& h : order) {
    o << "\n" << kKeyMarker << h.key << " (PyTorch " << version_name(h.since) << "+)\n";
    if (!h.why.empty()) o << "// " << h.why << "\n";
    o << h.text;
  }
  o << "\n}  // namespace " << kNamespace << "\n";
  return o.str();
}

std::optional<std::set<std::string>> Generator::keys_of(std::string_view text) {
  if (!text.starts_with(kFirstLine)) return std::nullopt;
  std::set<std::string> keys;
  for (const auto& line : text::split(text, '\n')) {
    std::string_view l = line;
    if (!l.starts_with(kKeyMarker)) continue;
    l.remove_prefix(kKeyMarker.size());
    keys.insert(std::string(l.substr(0, l.find(' '))));
  }
  return keys;
}

}  // namespace torchabi::migration::stable_ops
