#include "analyzers/schema/ast.h"

#include <array>
#include <utility>

namespace torchabi::schema {

namespace {

// The type names of the schema language (its keywords for types), in
// BaseType order. TypeVariable has no fixed spelling.
constexpr std::array<const char*, 29> kSpellings = {
    "Tensor",   "int",          "SymInt",     "float",  "SymFloat",     "bool",
    "SymBool",  "str",          "complex",    "Scalar", "ScalarType",   "Layout",
    "MemoryFormat", "Device",   "DeviceIndex", "Stream", "Generator",   "Dimname",
    "Storage",  "QScheme",      "Quantizer",  "ConstQuantizerPtr", "None", "Capsule",
    "Any",      "AnyClassType", "AnyEnumType", "PyObject", "",
};
static_assert(kSpellings.size() == static_cast<size_t>(BaseType::TypeVariable) + 1);

}  // namespace

const char* spelling(BaseType b) { return kSpellings[static_cast<size_t>(b)]; }

std::optional<BaseType> base_type_named(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name == "NoneType") return BaseType::None;
  for (size_t i = 0; i + 1 < kSpellings.size(); ++i)
    if (name == kSpellings[i]) return static_cast<BaseType>(i);
  return std::nullopt;
}

Type Type::base_type(BaseType b, std::string spelled) {
  Type t;
  t.kind = TypeKind::Base;
  t.base = b;
  t.name = spelled.empty() ? std::string(spelling(b)) : std::move(spelled);
  return t;
}

Type Type::optional_of(Type inner) {
  Type t;
  t.kind = TypeKind::Optional;
  t.contained.push_back(std::move(inner));
  return t;
}

Type Type::list_of(Type inner, std::optional<int64_t> size) {
  Type t;
  t.kind = TypeKind::List;
  t.fixed_size = size;
  t.contained.push_back(std::move(inner));
  return t;
}

const Type& Type::element() const {
  if ((kind == TypeKind::Optional || kind == TypeKind::List) && !contained.empty())
    return contained.front();
  return *this;
}

const Type& Type::strip_optional() const {
  const Type* t = this;
  while (t->kind == TypeKind::Optional && !t->contained.empty()) t = &t->contained.front();
  return *t;
}

bool Type::mentions(BaseType b) const {
  if (kind == TypeKind::Base) return base == b;
  for (const Type& c : contained)
    if (c.mentions(b)) return true;
  return false;
}

const AliasInfo* Type::first_alias() const {
  if (alias) return &*alias;
  for (const Type& c : contained)
    if (const AliasInfo* a = c.first_alias()) return a;
  return nullptr;
}

namespace {
bool any_write(const Type& t) {
  if (t.alias && t.alias->is_write) return true;
  for (const Type& c : t.contained)
    if (any_write(c)) return true;
  return false;
}
}  // namespace

bool Argument::is_mutable() const { return any_write(type); }

std::string OperatorName::qualified() const {
  std::string out;
  if (!ns.empty()) out = ns + "::";
  out += unqualified();
  return out;
}

std::string OperatorName::unqualified() const {
  return overload.empty() ? name : name + "." + overload;
}

}  // namespace torchabi::schema
