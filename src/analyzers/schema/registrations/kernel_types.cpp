#include "analyzers/schema/registrations/kernel_types.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string_view>

#include "analyzers/schema/printer.h"
#include "analyzers/schema/registrations/cpp_type_pattern.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::schema {

namespace {

constexpr const char* kMapPath = "schema/schema_cpp_types.yaml";
constexpr const char* kConversionsPath = "schema/kernel_types.yaml";
constexpr size_t kMaxForms = 64;  // cartesian products of nested types stay small

using source::BoxableConversion;
using source::BoxableTypes;

// ---- legacy forms: patterns with $T / $N / $C ---------------------------------

std::vector<std::string> substitute(const std::vector<std::string>& patterns, const std::string& var,
                                    const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& p : patterns) {
    size_t at = p.find(var);
    if (at == std::string::npos) {
      out.push_back(p);
      continue;
    }
    for (const auto& v : values) {
      if (out.size() >= kMaxForms) return out;
      out.push_back(p.substr(0, at) + v + p.substr(at + var.size()));
    }
  }
  return out;
}

// "std::tuple<$T...>" for several returns: every combination of their forms.
std::vector<std::string> tuple_forms(const std::string& pattern, const std::vector<std::vector<std::string>>& parts) {
  std::vector<std::string> combos = {""};
  for (const auto& forms : parts) {
    std::vector<std::string> next;
    for (const auto& prefix : combos)
      for (const auto& f : forms) {
        if (next.size() >= kMaxForms) break;
        next.push_back(prefix.empty() ? f : prefix + ", " + f);
      }
    combos = std::move(next);
  }
  std::vector<std::string> out;
  size_t at = pattern.find("$T...");
  for (const auto& c : combos) out.push_back(pattern.substr(0, at) + c + pattern.substr(at + 5));
  return out;
}

std::vector<std::string> strings(const YAML::Node& n) {
  std::vector<std::string> out;
  if (n && n.IsSequence())
    for (const auto& x : n) out.push_back(x.as<std::string>());
  return out;
}

std::string base_name(const Type& t) { return t.kind == TypeKind::Base ? t.name : std::string(); }

// The later of two guards; an unguarded conversion (nullopt) needs nothing.
std::optional<TorchVersion> later(const std::optional<TorchVersion>& a, const std::optional<TorchVersion>& b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}

// What the primary FromImpl/ToImpl templates copy as they are: C++'s
// trivially copyable scalars of at most 64 bits, pointers (handles) included.
bool is_scalar(const std::string& cpp) {
  if (cpp.ends_with("*")) return true;
  static const char* const kScalars[] = {"bool", "char", "int8_t", "uint8_t", "short", "unsigned short", "int",
                                         "unsigned int", "int64_t", "uint64_t", "float", "double"};
  return std::find_if(std::begin(kScalars), std::end(kScalars), [&](const char* s) { return cpp == s; }) !=
         std::end(kScalars);
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

struct Form {
  std::string cpp;
  std::optional<TorchVersion> since;
};

}  // namespace

bool matches_form(const std::string& cpp, const std::vector<std::string>& forms) {
  for (const auto& f : forms) {
    size_t at = f.find("$C");
    if (at == std::string::npos) {
      if (f == cpp) return true;
      continue;
    }
    std::string before = f.substr(0, at), after = f.substr(at + 2);
    if (cpp.size() > before.size() + after.size() && cpp.compare(0, before.size(), before) == 0 &&
        cpp.compare(cpp.size() - after.size(), after.size(), after) == 0)
      return true;
  }
  return false;
}

KernelTypes KernelTypes::load(const inputs::RulesSource& rules) {
  return parse(rules.require(kMapPath), kMapPath, rules.require(kConversionsPath), kConversionsPath);
}

KernelTypes KernelTypes::parse(const std::string& map_yaml, const std::string& map_origin,
                               const std::string& conversions_yaml, const std::string& conversions_origin) {
  KernelTypes k;
  k.fallback_ = source::parse_boxable_types_yaml(conversions_yaml, conversions_origin);
  try {
    YAML::Node root = YAML::Load(map_yaml);
    YAML::Node s = root["stable"], l = root["legacy"];
    if (!s || !l) throw InputError(map_origin, "expected 'stable:' and 'legacy:' sections");
    for (const auto& kv : s["types"]) k.stable_.types[kv.first.as<std::string>()] = strings(kv.second);
    k.stable_.integers = strings(s["integers"]);
    k.stable_.optional = strings(s["optional"]);
    k.stable_.list = strings(s["list"]);
    k.stable_.tuple = strings(s["tuple"]);
    if (s["raw"]) k.stable_.raw = s["raw"].as<std::string>();
    for (const auto& kv : s["unsupported"])
      k.stable_.unsupported[kv.first.as<std::string>()] = kv.second.as<std::string>();
    for (const auto& kv : l["types"]) k.legacy_types_[kv.first.as<std::string>()] = strings(kv.second);
    k.legacy_optional_ = strings(l["optional"]);
    k.legacy_optional_list_ = strings(l["optional_list"]);
    k.legacy_list_ = strings(l["list"]);
    k.legacy_sized_bool_list_ = strings(l["sized_bool_list"]);
    k.legacy_custom_class_ = strings(l["custom_class"]);
    k.legacy_list_return_ = strings(l["list_return"]);
    k.legacy_tuple_return_ = l["tuple_return"].as<std::string>();
  } catch (const YAML::Exception& e) {
    throw InputError(map_origin, "malformed: " + e.msg);
  }
  if (k.stable_.types.empty() || k.legacy_types_.empty()) throw InputError(map_origin, "no types listed");
  return k;
}

// ---- stable ---------------------------------------------------------------------

namespace {

struct StableContext {
  const KernelTypes::StableMap& map;
  const std::vector<BoxableConversion>& list;  // FromImpl or ToImpl specialisations
  bool catch_all;

  // The C++ types a schema base type arrives as; `$integer` is every integer
  // type, or, to show what to write, only the first (int64_t).
  std::vector<std::string> leaves(const std::string& schema_name, bool every_integer = true) const {
    std::vector<std::string> out;
    auto it = map.types.find(schema_name);
    if (it == map.types.end()) return out;
    for (const auto& l : it->second) {
      if (l != "$integer") out.push_back(l);
      else if (every_integer) out.insert(out.end(), map.integers.begin(), map.integers.end());
      else if (!map.integers.empty()) out.push_back(map.integers.front());
    }
    return out;
  }

  // Whether a leaf type converts, and under which guard.
  std::optional<std::optional<TorchVersion>> leaf(const std::string& cpp) const {
    for (const auto& c : list)
      if (c.type == cpp) return c.since;
    if (catch_all && is_scalar(cpp)) return std::optional<TorchVersion>();
    return std::nullopt;
  }

  // A generic specialisation `container<$T>`.
  std::optional<std::optional<TorchVersion>> container(const std::string& name) const {
    for (const auto& c : list)
      if (c.type == name + "<$T>") return c.since;
    return std::nullopt;
  }

  StableMatch match(const Type& t, const CppTypeTree& n) const {
    StableMatch m;
    switch (t.kind) {
      case TypeKind::Base:
        for (const auto& l : leaves(t.name)) {
          // `$pointer`: any pointer, which the catch-all copies bit for bit.
          const std::string cpp = print(n);
          if (l == "$pointer" ? cpp.ends_with("*") : cpp == l)
            if (auto since = leaf(cpp)) return {true, *since};
        }
        return m;
      case TypeKind::Optional:
      case TypeKind::List: {
        const auto& names = t.kind == TypeKind::Optional ? map.optional : map.list;
        if (!n.templated || n.args.size() != 1 || !n.suffix.empty() || !contains(names, n.name)) return m;
        auto since = container(n.name);
        if (!since) return m;
        StableMatch inner = match(t.contained.front(), n.args.front());
        if (inner.ok) return {true, later(*since, inner.since)};
        return m;
      }
      default:
        return m;
    }
  }

  std::vector<Form> forms(const Type& t) const {
    std::vector<Form> out;
    switch (t.kind) {
      case TypeKind::Base:
        for (const auto& l : leaves(t.name, false))
          if (l != "$pointer")
            if (auto since = leaf(l)) out.push_back({l, *since});
        return out;
      case TypeKind::Optional:
      case TypeKind::List: {
        std::vector<Form> inner = forms(t.contained.front());
        for (const auto& name : t.kind == TypeKind::Optional ? map.optional : map.list) {
          auto since = container(name);
          if (!since) continue;
          for (const auto& f : inner) {
            if (out.size() >= kMaxForms) return out;
            out.push_back({name + "<" + f.cpp + ">", later(*since, f.since)});
          }
        }
        return out;
      }
      default:
        return out;
    }
  }
};

// The least demanding form's guard.
std::optional<TorchVersion> easiest(const std::vector<Form>& forms) {
  std::optional<TorchVersion> best;
  for (size_t i = 0; i < forms.size(); ++i) {
    if (!forms[i].since) return std::nullopt;
    if (i == 0 || *forms[i].since < *best) best = forms[i].since;
  }
  return best;
}

TypeForms to_type_forms(const std::vector<Form>& forms) {
  TypeForms out;
  for (const auto& f : forms) out.cpp.push_back(f.cpp);
  out.since = easiest(forms);
  return out;
}

}  // namespace

TypeForms KernelTypes::stable(const Type& t, Flow flow, const BoxableTypes& conv) const {
  StableContext ctx{stable_, flow == Flow::From ? conv.from : conv.to, conv.catch_all};
  std::vector<Form> forms = ctx.forms(t);
  // TORCH_BOX parameters may also be what UnboxType turns into these forms.
  if (flow == Flow::Param)
    for (size_t i = 0, n = forms.size(); i < n && forms.size() < kMaxForms; ++i)
      for (const auto& r : conv.unbox) {
        std::optional<CppTypeTree> bound;
        CppTypeTree to = parse_node(r.to);
        CppTypeTree form = parse_node(forms[i].cpp);
        if (!unify(to, form, bound)) continue;
        CppTypeTree from = parse_node(r.from);
        forms.push_back({print(bound ? substitute(from, *bound) : from), later(forms[i].since, r.since)});
      }
  TypeForms out = to_type_forms(forms);
  if (!out.cpp.empty()) return out;
  // Why there is none.
  const Type* base = &t;
  while (base->kind == TypeKind::Optional || base->kind == TypeKind::List) base = &base->contained.front();
  switch (base->kind) {
    case TypeKind::Base:
      if (auto u = stable_.unsupported.find(base->name); u != stable_.unsupported.end())
        out.unsupported = "'" + base->name + "' has no stable-ABI representation: " + u->second;
      else if (!stable_.types.count(base->name))
        out.unsupported = "'" + base->name + "' has no stable-ABI representation";
      else
        out.unsupported = "these headers have no StableIValue conversion for '" + to_string(t) + "'";
      return out;
    case TypeKind::CustomClass:
      out.unsupported = "TorchBind classes have no stable-ABI representation";
      return out;
    default:
      out.unsupported = "tuples, dicts, unions and futures have no stable-ABI representation";
      return out;
  }
}

TypeForms KernelTypes::stable_returns(const std::vector<Return>& returns, const BoxableTypes& conv) const {
  TypeForms out;
  if (returns.empty()) {
    out.cpp = {"void"};
    return out;
  }
  if (returns.size() == 1) return stable(returns[0].type, Flow::From, conv);
  const auto& tuple = conv.boxer_found ? conv.tuple_returns : fallback_.tuple_returns;
  std::vector<std::vector<std::string>> parts;
  for (const auto& r : returns) {
    TypeForms f = stable(r.type, Flow::From, conv);
    if (!f.unsupported.empty()) return f;
    out.since = later(out.since, f.since);
    parts.push_back(f.cpp);
  }
  if (!tuple || stable_.tuple.empty()) {
    out.since.reset();
    out.unsupported = "these headers' TORCH_BOX cannot return several values";
    return out;
  }
  out.since = later(out.since, tuple->since);
  out.cpp = tuple_forms(stable_.tuple.front() + "<$T...>", parts);
  return out;
}

StableMatch KernelTypes::match(const Type& t, Flow flow, const std::string& cpp, const std::string& spelled,
                               const BoxableTypes& conv) const {
  if (flow != Flow::From && !stable_.raw.empty() && cpp == "uint64_t" && spelled.find(stable_.raw) != std::string::npos)
    return {true, std::nullopt};
  StableContext ctx{stable_, flow == Flow::From ? conv.from : conv.to, conv.catch_all};
  CppTypeTree n = parse_node(cpp);
  std::optional<TorchVersion> since;
  if (flow == Flow::Param)
    for (const auto& r : conv.unbox) {
      std::optional<CppTypeTree> bound;
      if (!unify(parse_node(r.from), n, bound)) continue;
      CppTypeTree to = parse_node(r.to);
      n = bound ? substitute(to, *bound) : to;
      since = r.since;
      break;
    }
  StableMatch m = ctx.match(t, n);
  if (m.ok) m.since = later(m.since, since);
  return m;
}

StableMatch KernelTypes::match_returns(const std::vector<Return>& returns, const std::string& cpp,
                                       const BoxableTypes& conv) const {
  StableContext ctx{stable_, conv.from, conv.catch_all};
  CppTypeTree n = parse_node(cpp);
  if (n.templated && n.suffix.empty() && contains(stable_.tuple, n.name)) {
    const auto& tuple = conv.boxer_found ? conv.tuple_returns : fallback_.tuple_returns;
    if (!tuple || n.args.size() != returns.size()) return {};
    StableMatch all{true, tuple->since};
    for (size_t i = 0; i < returns.size(); ++i) {
      StableMatch m = ctx.match(returns[i].type, n.args[i]);
      if (!m.ok) return {};
      all.since = later(all.since, m.since);
    }
    return all;
  }
  if (returns.empty()) return {cpp == "void", std::nullopt};
  if (returns.size() == 1) return ctx.match(returns[0].type, n);
  return {};
}

// ---- legacy ---------------------------------------------------------------------

TypeForms KernelTypes::legacy(const Type& t) const {
  TypeForms out;
  switch (t.kind) {
    case TypeKind::Base:
      if (auto it = legacy_types_.find(t.name); it != legacy_types_.end()) out.cpp = it->second;
      return out;
    case TypeKind::CustomClass:
      out.cpp = legacy_custom_class_;
      return out;
    case TypeKind::Optional: {
      const Type& inner = t.contained.front();
      TypeForms f = legacy(inner);
      if (f.cpp.empty()) return out;
      out.cpp = substitute(legacy_optional_, "$T", f.cpp);
      if (inner.kind == TypeKind::List) {
        TypeForms elem = legacy(inner.contained.front());
        auto more = substitute(legacy_optional_list_, "$T", elem.cpp);
        out.cpp.insert(out.cpp.end(), more.begin(), more.end());
      }
      return out;
    }
    case TypeKind::List: {
      const Type& elem = t.contained.front();
      TypeForms f = legacy(elem);
      if (f.cpp.empty()) return out;
      out.cpp = substitute(legacy_list_, "$T", f.cpp);
      if (elem.is_base(BaseType::Bool) && t.fixed_size) {
        auto sized = substitute(legacy_sized_bool_list_, "$N", {std::to_string(*t.fixed_size)});
        out.cpp.insert(out.cpp.end(), sized.begin(), sized.end());
      }
      // SymInt[] is also accepted as int[] (c10::SymIntArrayRef or IntArrayRef).
      if (base_name(elem) == "SymInt") {
        auto ints = substitute(legacy_list_, "$T", {"int64_t"});
        out.cpp.insert(out.cpp.end(), ints.begin(), ints.end());
      }
      return out;
    }
    default:
      return out;
  }
}

TypeForms KernelTypes::legacy_returns(const std::vector<Return>& returns) const {
  TypeForms out;
  auto one = [&](const Type& t) {
    if (t.kind == TypeKind::List) {
      TypeForms elem = legacy(t.contained.front());
      return elem.cpp.empty() ? TypeForms{} : TypeForms{substitute(legacy_list_return_, "$T", elem.cpp), {}, {}};
    }
    return legacy(t);
  };
  if (returns.empty()) {
    out.cpp = {"void"};
    return out;
  }
  if (returns.size() == 1) return one(returns[0].type);
  std::vector<std::vector<std::string>> parts;
  for (const auto& r : returns) {
    TypeForms f = one(r.type);
    if (f.cpp.empty()) return out;
    parts.push_back(f.cpp);
  }
  out.cpp = tuple_forms(legacy_tuple_return_, parts);
  return out;
}

}  // namespace torchabi::schema
