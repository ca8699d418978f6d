#include "analyzers/runtime/shim/codec.h"

#include <cstring>
#include <stdexcept>
#include <sys/uio.h>
#include <unistd.h>

#include "analyzers/runtime/shim/invoke.h"
#include "analyzers/runtime/shim/registry.h"

namespace torchabi::runtime {
namespace {

template <class T>
StableIValue bits_of(T v) {
  static_assert(sizeof(T) <= sizeof(StableIValue));
  StableIValue out = 0;
  std::memcpy(&out, &v, sizeof(T));
  return out;
}

template <class T>
T value_of(StableIValue bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

[[noreturn]] void mismatch(const Value& v, const TypeDesc& t, const std::string& origin) {
  static const char* kinds[] = {"None", "Tensor", "int", "float", "bool", "str", "list", "Device"};
  throw std::invalid_argument(origin + ": a " + kinds[static_cast<int>(v.kind)] + " value cannot be passed as " +
                              t.spelling);
}

// A slot that should hold a plain value but holds a live handle is a
// protocol error (the kernel wrote from(tensor) where the schema says int).
bool holds_handle(StableIValue bits, std::string& problem, const TypeDesc& t) {
  if (HandleRecord* rec = find_handle(bits)) {
    problem = "holds " + rec->describe() + ", not a value of type " + t.spelling;
    return true;
  }
  return false;
}

bool decode_code(StableIValue bits, const TypeDesc& t, int64_t max_code, Value& out, std::string& problem) {
  if (holds_handle(bits, problem, t)) return false;
  int32_t code = value_of<int32_t>(bits);
  bool known = t.kind == TypeKind::ScalarType ? dtype_info(code).size != 0 : (code >= 0 && code <= max_code);
  if (!known || (bits >> 32) != 0) {
    problem = "holds " + to_hex(bits) + ", which is not a " + t.spelling + " code";
    return false;
  }
  out = Value::of_int(code);
  return true;
}

}  // namespace

std::string to_hex(uint64_t bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(bits));
  if (bits == kUnwrittenSlot) return std::string(buf) + " (torchabi's marker for a slot past the arguments)";
  return buf;
}

bool safe_read_u64(uint64_t address, uint64_t& out) {
  if (address == 0 || address % alignof(uint64_t) != 0) return false;
  iovec local{&out, sizeof out};
  iovec remote{reinterpret_cast<void*>(address), sizeof out};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(sizeof out);
}

StableIValue encode(const Value& v, const TypeDesc& t, const std::string& origin) {
  switch (t.kind) {
    case TypeKind::Tensor:
      if (v.kind != Value::Kind::Tensor) mismatch(v, t, origin);
      return bits_of(new_tensor_handle(v.tensor, origin));
    case TypeKind::Int:
      if (v.kind != Value::Kind::Int) mismatch(v, t, origin);
      return bits_of(v.i);
    case TypeKind::ScalarType:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat:
      if (v.kind != Value::Kind::Int) mismatch(v, t, origin);
      return bits_of(static_cast<int32_t>(v.i));
    case TypeKind::Float:
      if (v.kind != Value::Kind::Double) mismatch(v, t, origin);
      return bits_of(v.d);
    case TypeKind::Bool:
      if (v.kind != Value::Kind::Bool) mismatch(v, t, origin);
      return bits_of(v.b);
    case TypeKind::String:
      if (v.kind != Value::Kind::String) mismatch(v, t, origin);
      return bits_of(new_string_handle(v.s, origin));
    case TypeKind::Device:
      if (v.kind != Value::Kind::Device) mismatch(v, t, origin);
      return static_cast<uint64_t>(static_cast<uint32_t>(v.device_index)) |
             (static_cast<uint64_t>(static_cast<uint32_t>(v.device_type)) << 32);
    case TypeKind::Optional:
      if (v.is_none()) return 0;
      return bits_of(new StableIValue(encode(v, t.elem(), origin)));
    case TypeKind::List: {
      if (v.kind != Value::Kind::List) mismatch(v, t, origin);
      std::vector<StableIValue> items;
      items.reserve(v.list.size());
      for (size_t i = 0; i < v.list.size(); ++i)
        items.push_back(encode(v.list[i], t.elem(), origin + "[" + std::to_string(i) + "]"));
      return bits_of(new_list_handle(std::move(items), origin));
    }
    case TypeKind::Unconvertible:
      throw std::invalid_argument(origin + ": libtorch has no StableIValue conversion for " + t.spelling);
  }
  throw std::invalid_argument(origin + ": unknown type");
}

bool decode(StableIValue bits, const TypeDesc& t, const char* consumer, Value& out, std::string& problem) {
  switch (t.kind) {
    case TypeKind::Tensor: {
      HandleRecord* rec = find_handle(bits);
      if (!rec || rec->kind != HandleKind::Tensor) {
        problem = rec ? "holds " + rec->describe() + ", not a tensor handle"
                      : "holds " + to_hex(bits) + ", which is not a tensor handle";
        return false;
      }
      if (!rec->alive) {
        problem = "holds " + rec->describe() + ", which " + rec->released_by + " already released";
        return false;
      }
      out = Value::of_tensor(rec->tensor);
      release_handle(rec, HandleKind::Tensor, consumer);
      return true;
    }
    case TypeKind::Int:
      if (holds_handle(bits, problem, t)) return false;
      out = Value::of_int(value_of<int64_t>(bits));
      return true;
    case TypeKind::Float:
      if (holds_handle(bits, problem, t)) return false;
      out = Value::of_double(value_of<double>(bits));
      return true;
    case TypeKind::Bool:
      if (bits > 1) {
        problem = "holds " + to_hex(bits) + ", which is not a bool (0 or 1)";
        return false;
      }
      out = Value::of_bool(bits == 1);
      return true;
    case TypeKind::ScalarType: return decode_code(bits, t, 0, out, problem);
    case TypeKind::Layout: return decode_code(bits, t, 7, out, problem);
    case TypeKind::MemoryFormat: return decode_code(bits, t, 3, out, problem);
    case TypeKind::Device: {
      if (holds_handle(bits, problem, t)) return false;
      int32_t type = static_cast<int32_t>(bits >> 32);
      if (type < 0 || type > 20) {
        problem = "holds " + to_hex(bits) + ", which is not a Device (device type in the high 32 bits)";
        return false;
      }
      out = Value::of_device(type, static_cast<int32_t>(static_cast<uint32_t>(bits)));
      return true;
    }
    case TypeKind::String: {
      HandleRecord* rec = find_handle(bits);
      if (!rec || rec->kind != HandleKind::String || !rec->alive) {
        problem = rec ? "holds " + rec->describe() + ", not a live string handle"
                      : "holds " + to_hex(bits) + ", which is not a string handle";
        return false;
      }
      out = Value::of_string(rec->text);
      release_handle(rec, HandleKind::String, consumer);
      return true;
    }
    case TypeKind::Optional: {
      if (bits == 0) {
        out = Value::none();
        return true;
      }
      uint64_t inner = 0;
      if (find_handle(bits) || !safe_read_u64(bits, inner)) {
        problem = "holds " + to_hex(bits) + ", which is neither nullptr nor a pointer to a StableIValue (" +
                  t.spelling + " is passed boxed)";
        return false;
      }
      if (!decode(inner, t.elem(), consumer, out, problem)) return false;
      delete reinterpret_cast<StableIValue*>(bits);
      return true;
    }
    case TypeKind::List: {
      HandleRecord* rec = find_handle(bits);
      if (!rec || rec->kind != HandleKind::List || !rec->alive) {
        problem = rec ? "holds " + rec->describe() + ", not a live list handle"
                      : "holds " + to_hex(bits) + ", which is not a list handle";
        return false;
      }
      std::vector<Value> items;
      for (size_t i = 0; i < rec->items.size(); ++i) {
        Value item;
        std::string why;
        if (!decode(rec->items[i], t.elem(), consumer, item, why)) {
          problem = "holds a list whose item " + std::to_string(i) + " " + why;
          return false;
        }
        items.push_back(std::move(item));
      }
      out = Value::of_list(std::move(items));
      release_handle(rec, HandleKind::List, consumer);
      return true;
    }
    case TypeKind::Unconvertible:
      problem = "has type " + t.spelling + ", which libtorch cannot convert from a StableIValue";
      return false;
  }
  return false;
}

}  // namespace torchabi::runtime
