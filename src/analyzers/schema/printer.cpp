#include "analyzers/schema/printer.h"

namespace torchabi::schema {

namespace {

template <class Range, class F>
std::string join(const Range& items, const char* sep, F&& print) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += sep;
    first = false;
    out += print(item);
  }
  return out;
}

std::string join_sets(const std::vector<std::string>& sets) {
  return join(sets, "|", [](const std::string& s) { return s; });
}

std::string with_alias(std::string text, const Type& t) {
  if (t.alias) text += to_string(*t.alias);
  return text;
}

std::string types(const std::vector<Type>& ts) {
  return join(ts, ", ", [](const Type& t) { return to_string(t); });
}

}  // namespace

std::string to_string(const AliasInfo& a) {
  if (a.fresh) return "!";
  std::string out = "(" + join_sets(a.before);
  if (a.is_write) out += "!";
  if (a.has_arrow) out += " -> " + join_sets(a.after);
  return out + ")";
}

std::string to_string(const Type& t) {
  switch (t.kind) {
    case TypeKind::Base:
      return with_alias(t.name, t);
    case TypeKind::Optional:
      return to_string(t.contained.front()) + "?";
    case TypeKind::List: {
      std::string size = t.fixed_size ? std::to_string(*t.fixed_size) : "";
      return with_alias(to_string(t.contained.front()) + "[" + size + "]", t);
    }
    case TypeKind::Tuple:
      return "(" + types(t.contained) + ")";
    case TypeKind::Dict:
      return with_alias("Dict(" + types(t.contained) + ")", t);
    case TypeKind::Union:
      return with_alias("Union(" + types(t.contained) + ")", t);
    case TypeKind::Future:
      return "Future(" + types(t.contained) + ")";
    case TypeKind::Await:
      return "Await(" + types(t.contained) + ")";
    case TypeKind::RRef:
      return "RRef(" + types(t.contained) + ")";
    case TypeKind::CustomClass:
      return "__torch__.torch.classes." + t.name;
  }
  return {};
}

std::string to_string(const DefaultValue& v) {
  switch (v.kind) {
    case DefaultValue::Kind::None:
      return "None";
    case DefaultValue::Kind::True:
      return "True";
    case DefaultValue::Kind::False:
      return "False";
    case DefaultValue::Kind::List:
      return "[" + join(v.elements, ",", [](const DefaultValue& e) { return to_string(e); }) + "]";
    default:
      return v.text;
  }
}

std::string to_string(const Argument& a) {
  std::string out = to_string(a.type) + " " + a.name;
  if (a.default_value) out += "=" + to_string(*a.default_value);
  return out;
}

std::string to_string(const Return& r) {
  std::string out = to_string(r.type);
  if (!r.name.empty()) out += " " + r.name;
  return out;
}

std::string to_string(const FunctionSchema& s) {
  std::vector<std::string> args;
  bool in_kwargs = false;
  for (const Argument& a : s.arguments) {
    if (a.kwarg_only && !in_kwargs) args.push_back("*");
    in_kwargs = in_kwargs || a.kwarg_only;
    args.push_back(to_string(a));
  }
  if (s.is_vararg) args.push_back("...");

  std::vector<std::string> rets;
  for (const Return& r : s.returns) rets.push_back(to_string(r));
  if (s.is_varret) rets.push_back("...");
  // One return prints bare, unless it is a tuple type that would read as a
  // return list, or the lone `...`, which is bare anyway.
  bool bare = rets.size() == 1 && (s.returns.empty() || s.returns[0].type.kind != TypeKind::Tuple);

  auto plain = [](const std::string& x) { return x; };
  std::string out = s.name.qualified() + "(" + join(args, ", ", plain) + ") -> ";
  out += bare ? rets.front() : "(" + join(rets, ", ", plain) + ")";
  return out;
}

}  // namespace torchabi::schema
