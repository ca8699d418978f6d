// The syntax tree of PyTorch's operator schema language
// ("ns::name.overload(Tensor(a!) self, *, int dim=0) -> Tensor(a!)").
//
// The tree keeps what the author wrote (default values as spelled, alias sets
// as listed) so that printing it gives back an equivalent schema, and two
// trees compare equal exactly when their schemas mean the same thing up to
// layout: whitespace, `-> (T x)` vs `-> T x` and redundant `*` markers do not
// survive parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace torchabi::schema {

// `(a)`, `(a!)`, `(a -> *)`, `(a|b! -> b)` or the bare `!` shorthand.
struct AliasInfo {
  std::vector<std::string> before;  // alias sets before the call; "*" is the wildcard
  std::vector<std::string> after;   // sets after the call; only when has_arrow
  bool is_write = false;
  bool has_arrow = false;
  bool fresh = false;  // written as a bare `!` (a fresh set, written to)

  bool operator==(const AliasInfo&) const = default;
};

// The named types of the language. Type variables are lower-case names that
// are not one of these (`t`, `t1`); they carry their spelling in Type::name.
enum class BaseType {
  Tensor, Int, SymInt, Float, SymFloat, Bool, SymBool, Str, Complex, Scalar,
  ScalarType, Layout, MemoryFormat, Device, DeviceIndex, Stream, Generator,
  Dimname, Storage, QScheme, Quantizer, ConstQuantizerPtr, None, Capsule, Any,
  AnyClassType, AnyEnumType, PyObject, TypeVariable,
};

// The schema spelling of a base type ("Tensor", "int", "SymInt", ...).
const char* spelling(BaseType b);
// Base type for a spelling; nullopt when it is not a type name of the language.
std::optional<BaseType> base_type_named(const std::string& name);

enum class TypeKind {
  Base,         // Tensor, int, ... (name = spelling)
  Optional,     // T?
  List,         // T[] or, at argument level, T[N]
  Tuple,        // (T1, T2)
  Dict,         // Dict(K, V)
  Union,        // Union(T1, T2)
  Future,       // Future(T)
  Await,        // Await(T)
  RRef,         // RRef(T)
  CustomClass,  // __torch__.torch.classes.ns.Class (name = "ns.Class")
};

struct Type {
  TypeKind kind = TypeKind::Base;
  BaseType base = BaseType::Tensor;       // kind == Base
  std::string name;                       // Base: spelling; CustomClass: "ns.Class"
  std::vector<Type> contained;            // element / key+value / members
  std::optional<int64_t> fixed_size;      // List written T[N]
  std::optional<AliasInfo> alias;         // annotation written right after this type

  bool operator==(const Type&) const = default;

  static Type base_type(BaseType b, std::string spelled = {});
  static Type optional_of(Type t);
  static Type list_of(Type t, std::optional<int64_t> size = std::nullopt);

  bool is_optional() const { return kind == TypeKind::Optional; }
  bool is_list() const { return kind == TypeKind::List; }
  bool is_base(BaseType b) const { return kind == TypeKind::Base && base == b; }
  // The element of T? or T[]; *this for anything else.
  const Type& element() const;
  // T without any number of `?` around it.
  const Type& strip_optional() const;
  // True if a Tensor appears anywhere inside (Tensor?, Tensor[], (Tensor, int)).
  bool mentions(BaseType b) const;
  // The first alias annotation found from the outside in (Tensor(a!)? -> (a!)).
  const AliasInfo* first_alias() const;
};

// A default value as written. Numbers and strings keep their spelling
// ("1e-05", "'linear'") so printing reproduces them exactly.
struct DefaultValue {
  enum class Kind { None, True, False, Int, Float, Complex, String, Enum, List };
  Kind kind = Kind::None;
  std::string text;                    // the token as written (list: empty)
  std::vector<DefaultValue> elements;  // Kind::List

  bool operator==(const DefaultValue&) const = default;
};

struct Argument {
  Type type;
  std::string name;
  std::optional<DefaultValue> default_value;
  bool kwarg_only = false;

  bool operator==(const Argument&) const = default;
  // Written to by the op: any alias annotation with `!`.
  bool is_mutable() const;
};

struct Return {
  Type type;
  std::string name;  // optional field name; empty when unnamed

  bool operator==(const Return&) const = default;
};

struct OperatorName {
  std::string ns;        // "aten", "myops"; empty when the schema has none
  std::string name;      // "add"
  std::string overload;  // "Tensor"; empty for the default overload

  bool operator==(const OperatorName&) const = default;
  // "ns::name.overload", leaving out what is empty.
  std::string qualified() const;
  // "name.overload" without the namespace.
  std::string unqualified() const;
};

struct FunctionSchema {
  OperatorName name;
  std::vector<Argument> arguments;
  std::vector<Return> returns;
  bool is_vararg = false;  // `...` ends the argument list
  bool is_varret = false;  // `...` ends the return list

  bool operator==(const FunctionSchema&) const = default;
};

}  // namespace torchabi::schema
