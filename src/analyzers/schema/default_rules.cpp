#include "analyzers/schema/default_rules.h"

#include <cctype>
#include <charconv>
#include <cstdint>

namespace torchabi::schema {

namespace {

using Kind = DefaultValue::Kind;

// What a scalar slot accepts. ScalarType, Layout and MemoryFormat are
// integers underneath and take the enum-like names.
enum class Slot { NoneOnly, DeviceString, String, Int, EnumInt, Float, Complex, Bool, Scalar, None };

Slot slot_of(BaseType b) {
  switch (b) {
    case BaseType::Tensor:
    case BaseType::Generator:
    case BaseType::Quantizer:
      return Slot::NoneOnly;
    case BaseType::Device:
      return Slot::DeviceString;
    case BaseType::Str:
    case BaseType::Dimname:
      return Slot::String;
    case BaseType::Int:
    case BaseType::SymInt:
    case BaseType::DeviceIndex:
    case BaseType::ConstQuantizerPtr:
      return Slot::Int;
    case BaseType::ScalarType:
    case BaseType::Layout:
    case BaseType::MemoryFormat:
      return Slot::EnumInt;
    case BaseType::Float:
    case BaseType::SymFloat:
      return Slot::Float;
    case BaseType::Complex:
      return Slot::Complex;
    case BaseType::Bool:
    case BaseType::SymBool:
      return Slot::Bool;
    case BaseType::Scalar:
      return Slot::Scalar;
    default:
      return Slot::None;  // Storage, Stream, Any, type variables, ...
  }
}

// The identifiers PyTorch's parser turns into integer constants.
bool is_enum_word(std::string_view w) {
  return w == "Mean" || w == "contiguous_format" || w == "strided" || w == "long" ||
         w == "float" || w == "complex";
}

// Dtype names as torch spells them (float32, int64, bfloat16, float8_e4m3fn,
// quint4x2, half, cdouble, ...): newer releases accept these for ScalarType.
bool is_dtype_name(std::string_view w) {
  for (std::string_view plain : {"bool", "half", "double", "float", "long", "int", "short",
                                 "cfloat", "cdouble", "chalf", "bit"})
    if (w == plain) return true;
  for (std::string_view stem : {"uint", "int", "float", "bfloat", "complex", "quint", "qint"}) {
    if (w.substr(0, stem.size()) != stem) continue;
    std::string_view rest = w.substr(stem.size());
    if (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0]))) continue;
    bool ok = true;
    for (char c : rest) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (ok) return true;
  }
  return false;
}

bool fits_int64(std::string_view text) {
  bool neg = !text.empty() && text[0] == '-';
  std::string_view digits = text.substr(neg ? 1 : 0);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (ec != std::errc() || end != digits.data() + digits.size()) return false;
  return neg ? v <= uint64_t(INT64_MAX) + 1 : v <= uint64_t(INT64_MAX);
}

std::optional<DefaultProblem> rejected(std::string m) { return DefaultProblem{true, std::move(m)}; }
std::optional<DefaultProblem> questionable(std::string m) {
  return DefaultProblem{false, std::move(m)};
}

std::string quoted(const Type& t) { return "'" + t.name + "'"; }

// What PyTorch rejects in any single constant, whatever the type.
std::optional<DefaultProblem> check_constant(const Type& t, const DefaultValue& v) {
  if (v.kind == Kind::Int && !fits_int64(v.text))
    return rejected("integer " + v.text + " does not fit in 64 bits");
  if (v.kind == Kind::Enum && !is_enum_word(v.text) &&
      !(t.is_base(BaseType::ScalarType) && is_dtype_name(v.text)))
    return rejected("'" + v.text + "' is not a known constant name");
  return std::nullopt;
}

// One constant (never a list) for a base type. `optional`: the type had `?`.
std::optional<DefaultProblem> check_scalar(const Type& t, const DefaultValue& v, bool optional) {
  if (t.kind != TypeKind::Base) return rejected("arguments of this type cannot have a default value");
  Slot slot = slot_of(t.base);
  const std::string name = quoted(t);
  if (slot == Slot::None && !optional)
    return rejected("arguments of type " + name + " cannot have a default value");
  if (slot == Slot::NoneOnly && !optional)
    return v.kind == Kind::None ? std::nullopt
                                : rejected("a " + name + " argument can only default to None");
  if (slot == Slot::DeviceString && !optional)
    return v.kind == Kind::String ? std::nullopt
                                  : rejected("a 'Device' takes a string such as \"cpu\"");
  if (auto p = check_constant(t, v)) return p;
  if (v.kind == Kind::None)
    return optional ? std::nullopt
                    : questionable("None is only a valid default for optional types (write '" +
                                   t.name + "?')");
  auto expected = [&](const char* what) {
    return questionable("an argument of type " + name + " takes " + what);
  };
  switch (slot) {
    case Slot::None:
    case Slot::NoneOnly:
      return questionable("an optional " + name + " argument can only default to None");
    case Slot::DeviceString:
    case Slot::String:
      return v.kind == Kind::String ? std::nullopt : expected("a string");
    case Slot::Bool:
      return v.kind == Kind::True || v.kind == Kind::False ? std::nullopt
                                                           : expected("True or False");
    case Slot::Int:
    case Slot::EnumInt:
      return v.kind == Kind::Int || v.kind == Kind::Enum ? std::nullopt : expected("an integer");
    case Slot::Float:
      return v.kind == Kind::Int || v.kind == Kind::Float ? std::nullopt : expected("a number");
    case Slot::Complex:
      return v.kind == Kind::Int || v.kind == Kind::Float || v.kind == Kind::Complex
                 ? std::nullopt
                 : expected("a number");
    case Slot::Scalar:
      return v.kind == Kind::Int || v.kind == Kind::Float || v.kind == Kind::Complex ||
                     v.kind == Kind::True || v.kind == Kind::False
                 ? std::nullopt
                 : expected("a number or True/False");
  }
  return std::nullopt;
}

// A list element: PyTorch converts each to the element kind and fails hard
// when it cannot (1.5 in an int list, 1 in a bool list).
std::optional<DefaultProblem> check_element(const Type& elem, const DefaultValue& v) {
  if (auto p = check_constant(elem, v)) return p;
  switch (slot_of(elem.base)) {
    case Slot::Int:
    case Slot::EnumInt:
      if (v.kind == Kind::Int || v.kind == Kind::Enum) return std::nullopt;
      return rejected("an element of a " + quoted(elem) + " list must be an integer");
    case Slot::Bool:
      if (v.kind == Kind::True || v.kind == Kind::False) return std::nullopt;
      return rejected("an element of a 'bool' list must be True or False");
    case Slot::Float:
      if (v.kind == Kind::Int || v.kind == Kind::Float) return std::nullopt;
      return rejected("an element of a " + quoted(elem) + " list must be a number");
    default:  // complex
      if (v.kind == Kind::Int || v.kind == Kind::Float || v.kind == Kind::Complex)
        return std::nullopt;
      return rejected("an element of a 'complex' list must be a number");
  }
}

bool list_element_ok(const Type& elem) {
  if (elem.kind != TypeKind::Base) return false;
  Slot s = slot_of(elem.base);
  return s == Slot::Int || s == Slot::EnumInt || s == Slot::Float || s == Slot::Complex ||
         s == Slot::Bool;
}

}  // namespace

DefaultValue::Kind number_kind(std::string_view text) {
  if (!text.empty() && text.back() == 'j') return Kind::Complex;
  bool hex = text.size() > 1 && (text[1] == 'x' || text[1] == 'X');
  for (char c : text)
    if (c == '.' || (!hex && (c == 'e' || c == 'E')) || (hex && (c == 'p' || c == 'P')))
      return Kind::Float;
  return Kind::Int;
}

std::optional<DefaultProblem> check_default(const Type& type, const DefaultValue& v) {
  if (type.kind == TypeKind::Optional) {
    if (v.kind == Kind::List) return rejected("an optional argument cannot default to a list");
    if (v.kind == Kind::None) return std::nullopt;
    const Type& inner = type.contained.front();
    if (inner.kind == TypeKind::List) {
      if (auto p = check_constant(inner.contained.front(), v)) return p;
      return questionable("an optional list can only default to None");
    }
    return check_scalar(inner, v, /*optional=*/true);
  }
  if (type.kind == TypeKind::List) {
    const Type& elem = type.contained.front();
    if (v.kind == Kind::Enum) return rejected("a list cannot default to a name");
    if (v.kind == Kind::None && !type.fixed_size)
      return rejected("a list that is not optional cannot default to None (add '?' to the type)");
    if (v.kind != Kind::List && !type.fixed_size)
      return rejected("a list default must be a list literal such as []");
    if (!list_element_ok(elem))
      return rejected("list defaults are only supported for lists of int, float, bool and complex");
    if (v.kind != Kind::List) return check_element(elem, v);  // int[2] x=1 means [1, 1]
    for (const DefaultValue& e : v.elements)
      if (auto p = check_element(elem, e)) return p;
    return std::nullopt;
  }
  if (v.kind == Kind::List) return rejected("a list default needs a list type");
  return check_scalar(type, v, /*optional=*/false);
}

std::vector<QuestionableDefault> questionable_defaults(const FunctionSchema& schema) {
  std::vector<QuestionableDefault> out;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    if (!a.default_value) continue;
    auto p = check_default(a.type, *a.default_value);
    if (p && !p->rejected_by_pytorch) out.push_back({i, p->message});
  }
  return out;
}

}  // namespace torchabi::schema
