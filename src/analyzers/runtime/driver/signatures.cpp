#include "analyzers/runtime/driver/signatures.h"

#include <memory>
#include <sstream>
#include <unordered_map>

#include "analyzers/runtime/driver/schema_types.h"
#include "analyzers/schema/parser.h"
#include "analyzers/schema/printer.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::runtime_driver {
namespace {

using runtime::TypeDesc;
using runtime::TypeKind;
using runtime::Value;

TypeDesc convert_type(const schema::Type& t) {
  TypeDesc d;
  d.spelling = schema::to_string(t);
  // Alias annotations are carried by ArgDesc, not by the type's spelling.
  if (t.alias) {
    schema::Type bare = t;
    bare.alias.reset();
    d.spelling = schema::to_string(bare);
  }
  switch (t.kind) {
    case schema::TypeKind::Optional:
      d.kind = TypeKind::Optional;
      d.element.push_back(convert_type(t.contained.front()));
      return d;
    case schema::TypeKind::List:
      d.kind = TypeKind::List;
      d.element.push_back(convert_type(t.contained.front()));
      return d;
    case schema::TypeKind::Base:
      if (const SchemaTypeFacts* f = SchemaTypeTable::current().find(schema::spelling(t.base))) {
        d.kind = f->kind;
        return d;
      }
      break;
    default: break;
  }
  d.kind = TypeKind::Unconvertible;
  return d;
}

std::optional<int32_t> enum_code(const std::string& text) {
  static const std::pair<const char*, int32_t> kEnums[] = {
      {"contiguous_format", 0}, {"preserve_format", 1}, {"channels_last", 2}, {"channels_last_3d", 3},
      {"strided", 0},           {"sparse_coo", 1},     {"sparse_csr", 2}};
  for (const auto& [name, code] : kEnums)
    if (text == name) return code;
  int32_t dt;
  if (runtime::dtype_from_name(text, dt)) return dt;
  return std::nullopt;
}

std::optional<Value> convert_default(const schema::DefaultValue& v, const TypeDesc& t) {
  const TypeDesc& base = t.kind == TypeKind::Optional ? t.elem() : t;
  using K = schema::DefaultValue::Kind;
  switch (v.kind) {
    case K::None: return Value::none();
    case K::True: return Value::of_bool(true);
    case K::False: return Value::of_bool(false);
    case K::Int:
      if (base.kind == TypeKind::Float) return Value::of_double(std::stod(v.text));
      if (base.kind == TypeKind::List) return Value::of_list({Value::of_int(std::stoll(v.text))});
      return Value::of_int(std::stoll(v.text));
    case K::Float: return Value::of_double(std::stod(v.text));
    case K::String: {
      std::string s = v.text;
      if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'')) s = s.substr(1, s.size() - 2);
      return Value::of_string(s);
    }
    case K::Enum:
      if (auto code = enum_code(v.text)) return Value::of_int(*code);
      return std::nullopt;
    case K::List: {
      std::vector<Value> items;
      const TypeDesc& elem = base.kind == TypeKind::List ? base.elem() : base;
      for (const auto& e : v.elements) {
        auto item = convert_default(e, elem);
        if (!item) return std::nullopt;
        items.push_back(*item);
      }
      return Value::of_list(std::move(items));
    }
    case K::Complex: return std::nullopt;
  }
  return std::nullopt;
}

runtime::ArgDesc convert_arg(const schema::Type& type, const std::string& name) {
  runtime::ArgDesc a;
  a.name = name;
  a.type = convert_type(type);
  if (const schema::AliasInfo* alias = type.first_alias()) {
    if (!alias->before.empty()) a.alias_set = alias->before.front();
    a.is_write = alias->is_write;
  }
  return a;
}

// The first type name in `t` that real torch does not parse, if any.
const char* unparsed_name(const schema::Type& t) {
  if (t.kind == schema::TypeKind::Base) {
    const SchemaTypeFacts* f = SchemaTypeTable::current().find(schema::spelling(t.base));
    if (f && !f->parsed()) return schema::spelling(t.base);
  }
  for (const auto& c : t.contained)
    if (const char* n = unparsed_name(c)) return n;
  return nullptr;
}

}  // namespace

OpSignature signature_from_ast(const schema::FunctionSchema& fs, const std::string& text) {
  OpSignature sig;
  sig.ns = fs.name.ns;
  sig.name = fs.name.name;
  sig.overload = fs.name.overload;
  sig.text = text;
  for (const auto& a : fs.arguments) {
    runtime::ArgDesc d = convert_arg(a.type, a.name);
    d.kwarg_only = a.kwarg_only;
    if (a.default_value) d.default_value = convert_default(*a.default_value, d.type);
    sig.args.push_back(std::move(d));
  }
  for (const auto& r : fs.returns) sig.returns.push_back(convert_arg(r.type, r.name));
  return sig;
}

std::variant<OpSignature, std::string> signature_from_schema(const std::string& text, const std::string& implied_ns) {
  schema::ParseOptions opts;
  opts.implied_namespace = implied_ns;
  auto parsed = schema::parse_schema(text, opts);
  if (auto* err = std::get_if<schema::ParseError>(&parsed)) return err->display();
  schema::FunctionSchema fs = std::get<schema::FunctionSchema>(parsed);
  if (fs.name.ns.empty()) fs.name.ns = implied_ns;
  // torchabi's parser knows every name of the language; torch rejects some.
  const char* unparsed = nullptr;
  for (const auto& a : fs.arguments) unparsed = unparsed ? unparsed : unparsed_name(a.type);
  for (const auto& r : fs.returns) unparsed = unparsed ? unparsed : unparsed_name(r.type);
  if (unparsed) return std::string("PyTorch's schema parser does not accept the type name '") + unparsed + "'";
  return signature_from_ast(fs, text);
}

std::vector<OpSignature> load_aten_signatures(const inputs::RulesSource& rules) {
  const std::string rel = "runtime/aten_ops.tsv";
  std::istringstream in(rules.require(rel));
  std::vector<OpSignature> out;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::string schema_text = line.substr(0, line.find('\t'));
    auto sig = signature_from_schema(schema_text, "aten");
    if (auto* err = std::get_if<std::string>(&sig))
      throw InputError(rules.describe() + "/" + rel + ":" + std::to_string(lineno), "schema does not parse: " + *err);
    out.push_back(std::get<OpSignature>(sig));
  }
  return out;
}

runtime::SchemaLookup make_aten_schema_lookup(const inputs::RulesSource& rules) {
  // name.overload -> schema text, filled on the first lookup (most runs never ask).
  auto text = std::make_shared<std::optional<std::string>>(rules.read("schema/aten_ops.tsv"));
  auto index = std::make_shared<std::unordered_map<std::string, std::string>>();
  return [text, index](const std::string& name, const std::string& overload) -> std::optional<OpSignature> {
    const std::string prefix = "aten::";
    if (!*text || name.rfind(prefix, 0) != 0) return std::nullopt;
    if (index->empty()) {
      std::istringstream in(**text);
      std::string line;
      while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const size_t tab = line.rfind('\t');
        std::string schema_text = tab == std::string::npos ? line : line.substr(tab + 1);
        std::string key = schema_text.substr(0, schema_text.find('('));
        if (key.find('.') == std::string::npos) key += ".";
        (*index)[key] = schema_text;
      }
    }
    auto it = index->find(name.substr(prefix.size()) + "." + overload);
    if (it == index->end()) return std::nullopt;
    auto sig = signature_from_schema(it->second, "aten");
    if (auto* s = std::get_if<OpSignature>(&sig)) return *s;
    return std::nullopt;
  };
}

}  // namespace torchabi::runtime_driver
