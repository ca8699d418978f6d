#include "analyzers/schema/registrations/kernel_types.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::schema {

namespace {

constexpr const char* kPath = "schema/kernel_types.yaml";
constexpr size_t kMaxForms = 64;  // cartesian products of nested types stay small

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

TorchVersion version_of(const YAML::Node& n, const std::string& origin) {
  auto v = TorchVersion::parse_dotted(n.as<std::string>());
  if (!v) throw InputError(origin, "bad release '" + n.as<std::string>() + "'");
  return *v;
}

std::vector<std::string> strings(const YAML::Node& n) {
  std::vector<std::string> out;
  if (n && n.IsSequence())
    for (const auto& x : n) out.push_back(x.as<std::string>());
  return out;
}

std::string base_name(const Type& t) { return t.kind == TypeKind::Base ? t.name : std::string(); }

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

KernelTypes KernelTypes::load(const inputs::RulesSource& rules) { return parse(rules.require(kPath), kPath); }

KernelTypes KernelTypes::parse(const std::string& text, const std::string& origin) {
  KernelTypes k;
  try {
    YAML::Node root = YAML::Load(text);
    YAML::Node s = root["stable"], l = root["legacy"];
    if (!s || !l) throw InputError(origin, "expected 'stable:' and 'legacy:' sections");
    for (const auto& kv : s["types"])
      k.stable_types_[kv.first.as<std::string>()] = {strings(kv.second["cpp"]), version_of(kv.second["since"], origin)};
    auto entry = [&](const YAML::Node& n) {
      StableEntry e;
      if (n["cpp"].IsSequence()) e.cpp = strings(n["cpp"]);
      else e.cpp = {n["cpp"].as<std::string>()};
      e.since = version_of(n["since"], origin);
      return e;
    };
    k.stable_optional_ = entry(s["optional"]);
    k.stable_list_ = entry(s["list"]);
    k.stable_tuple_ = entry(s["tuple_return"]);
    for (const auto& kv : s["unsupported"]) k.unsupported_[kv.first.as<std::string>()] = kv.second.as<std::string>();
    for (const auto& kv : l["types"]) k.legacy_types_[kv.first.as<std::string>()] = strings(kv.second);
    k.legacy_optional_ = strings(l["optional"]);
    k.legacy_optional_list_ = strings(l["optional_list"]);
    k.legacy_list_ = strings(l["list"]);
    k.legacy_sized_bool_list_ = strings(l["sized_bool_list"]);
    k.legacy_custom_class_ = strings(l["custom_class"]);
    k.legacy_list_return_ = strings(l["list_return"]);
    k.legacy_tuple_return_ = l["tuple_return"].as<std::string>();
  } catch (const YAML::Exception& e) {
    throw InputError(origin, "malformed: " + e.msg);
  }
  if (k.stable_types_.empty() || k.legacy_types_.empty()) throw InputError(origin, "no types listed");
  return k;
}

TypeForms KernelTypes::stable(const Type& t) const {
  TypeForms out;
  switch (t.kind) {
    case TypeKind::Base: {
      if (auto it = stable_types_.find(t.name); it != stable_types_.end()) {
        out.cpp = it->second.cpp;
        out.since = it->second.since;
      } else if (auto u = unsupported_.find(t.name); u != unsupported_.end()) {
        out.unsupported = "'" + t.name + "' has no stable-ABI representation: " + u->second;
      } else {
        out.unsupported = "'" + t.name + "' has no stable-ABI representation";
      }
      return out;
    }
    case TypeKind::Optional:
    case TypeKind::List: {
      TypeForms inner = stable(t.contained.front());
      if (!inner.unsupported.empty()) return inner;
      const StableEntry& e = t.kind == TypeKind::Optional ? stable_optional_ : stable_list_;
      out.cpp = substitute(e.cpp, "$T", inner.cpp);
      out.since = std::max(*inner.since, e.since);
      return out;
    }
    case TypeKind::CustomClass:
      out.unsupported = "TorchBind classes have no stable-ABI representation";
      return out;
    default:
      out.unsupported = "tuples, dicts, unions and futures have no stable-ABI representation";
      return out;
  }
}

TypeForms KernelTypes::stable_returns(const std::vector<Return>& returns) const {
  TypeForms out;
  if (returns.empty()) {
    out.cpp = {"void"};
    out.since = stable_optional_.since;  // the baseline
    return out;
  }
  if (returns.size() == 1) return stable(returns[0].type);
  std::vector<std::vector<std::string>> parts;
  out.since = stable_tuple_.since;
  for (const auto& r : returns) {
    TypeForms f = stable(r.type);
    if (!f.unsupported.empty()) return f;
    out.since = std::max(*out.since, *f.since);
    parts.push_back(f.cpp);
  }
  out.cpp = tuple_forms(stable_tuple_.cpp.front(), parts);
  return out;
}

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
