// What crosses between torchabi's driver and its runtime library: op
// signatures reduced to what the StableIValue encoding depends on, and values
// of those types. The driver builds them from parsed schemas and case files;
// the runtime encodes them onto a kernel's stack and decodes what comes back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/tensor.h"

namespace torchabi::runtime {

enum class TypeKind {
  Tensor, Int, Float, Bool, String, ScalarType, Layout, MemoryFormat, Device,
  Optional, List,
  Unconvertible,  // a schema type with no StableIValue conversion (Scalar, Generator, ...)
};

struct TypeDesc {
  TypeKind kind = TypeKind::Tensor;
  std::vector<TypeDesc> element;  // Optional/List: exactly one
  std::string spelling;           // as the schema writes it ("int[1]?", "Scalar")

  const TypeDesc& elem() const { return element.front(); }
  // The first type inside (through ?, []) that has no conversion, if any.
  const TypeDesc* unconvertible() const {
    if (kind == TypeKind::Unconvertible) return this;
    for (const auto& e : element)
      if (auto* u = e.unconvertible()) return u;
    return nullptr;
  }
};

struct Value {
  enum class Kind { None, Tensor, Int, Double, Bool, String, List, Device };
  Kind kind = Kind::None;
  Tensor tensor;
  int64_t i = 0;          // Int, and the codes of ScalarType/Layout/MemoryFormat
  double d = 0;
  bool b = false;
  std::string s;
  std::vector<Value> list;
  int32_t device_type = 0;
  int32_t device_index = -1;

  static Value none() { return {}; }
  static Value of_tensor(Tensor t) { Value v; v.kind = Kind::Tensor; v.tensor = std::move(t); return v; }
  static Value of_int(int64_t x) { Value v; v.kind = Kind::Int; v.i = x; return v; }
  static Value of_double(double x) { Value v; v.kind = Kind::Double; v.d = x; return v; }
  static Value of_bool(bool x) { Value v; v.kind = Kind::Bool; v.b = x; return v; }
  static Value of_string(std::string x) { Value v; v.kind = Kind::String; v.s = std::move(x); return v; }
  static Value of_list(std::vector<Value> x) { Value v; v.kind = Kind::List; v.list = std::move(x); return v; }
  static Value of_device(int32_t type, int32_t index) {
    Value v; v.kind = Kind::Device; v.device_type = type; v.device_index = index; return v;
  }
  bool is_none() const { return kind == Kind::None; }
};

struct ArgDesc {
  std::string name;
  TypeDesc type;
  std::string alias_set;   // "a" for Tensor(a) / Tensor(a!); empty when none
  bool is_write = false;   // Tensor(a!)
  bool kwarg_only = false;
  std::optional<Value> default_value;
};

struct OpSignature {
  std::string ns;        // "myops"
  std::string name;      // "add"
  std::string overload;  // "" for the default overload
  std::vector<ArgDesc> args;
  std::vector<ArgDesc> returns;  // name may be empty
  std::string text;      // the schema as registered

  std::string qualified() const { return ns + "::" + name + (overload.empty() ? "" : "." + overload); }
};

}  // namespace torchabi::runtime
