#include "analyzers/runtime/shim/tensor.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace torchabi::runtime {
namespace {

const DTypeInfo kDTypes[] = {
    {dtype::kUInt8, "uint8", 1, ElementKind::Unsigned},
    {dtype::kInt8, "int8", 1, ElementKind::Signed},
    {dtype::kInt16, "int16", 2, ElementKind::Signed},
    {dtype::kInt32, "int32", 4, ElementKind::Signed},
    {dtype::kInt64, "int64", 8, ElementKind::Signed},
    {dtype::kFloat16, "float16", 2, ElementKind::Float},
    {dtype::kFloat32, "float32", 4, ElementKind::Float},
    {dtype::kFloat64, "float64", 8, ElementKind::Float},
    {dtype::kComplex32, "complex32", 4, ElementKind::Complex},
    {dtype::kComplex64, "complex64", 8, ElementKind::Complex},
    {dtype::kComplex128, "complex128", 16, ElementKind::Complex},
    {dtype::kBool, "bool", 1, ElementKind::Bool},
    {dtype::kBFloat16, "bfloat16", 2, ElementKind::Float},
    {23, "float8_e5m2", 1, ElementKind::Other},
    {24, "float8_e4m3fn", 1, ElementKind::Other},
    {25, "float8_e5m2fnuz", 1, ElementKind::Other},
    {26, "float8_e4m3fnuz", 1, ElementKind::Other},
    {dtype::kUInt16, "uint16", 2, ElementKind::Unsigned},
    {dtype::kUInt32, "uint32", 4, ElementKind::Unsigned},
    {dtype::kUInt64, "uint64", 8, ElementKind::Unsigned},
    {44, "float8_e8m0fnu", 1, ElementKind::Other},
    {45, "float4_e2m1fn_x2", 1, ElementKind::Other},
};

const DTypeInfo kUnknown{};

struct Alias {
  const char* name;
  int32_t code;
};
const Alias kAliases[] = {{"float", dtype::kFloat32}, {"double", dtype::kFloat64}, {"half", dtype::kFloat16},
                          {"int", dtype::kInt32},     {"long", dtype::kInt64},     {"short", dtype::kInt16}};

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

const DTypeInfo& dtype_info(int32_t code) {
  for (const auto& d : kDTypes)
    if (d.code == code) return d;
  return kUnknown;
}

bool dtype_from_name(const std::string& name, int32_t& code) {
  std::string n = name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
  for (const auto& d : kDTypes)
    if (n == d.name) return code = d.code, true;
  for (const auto& a : kAliases)
    if (n == a.name) return code = a.code, true;
  return false;
}

bool is_computable(int32_t code) {
  auto k = dtype_info(code).kind;
  return k == ElementKind::Bool || k == ElementKind::Signed || k == ElementKind::Unsigned || k == ElementKind::Float;
}

bool is_integral_kind(int32_t code) {
  auto k = dtype_info(code).kind;
  return k == ElementKind::Bool || k == ElementKind::Signed || k == ElementKind::Unsigned;
}

const char* device_name(int32_t t) {
  switch (t) {
    case 0: return "cpu";
    case 1: return "cuda";
    case 12: return "xpu";
    case 13: return "mps";
    case 14: return "meta";
    case 20: return "privateuseone";
    default: return "unknown-device";
  }
}

Storage::~Storage() {
  if (release) release(data);
}

std::shared_ptr<Storage> Storage::allocate(size_t nbytes) {
  auto s = std::make_shared<Storage>();
  // At least one byte: calloc(0) may return null, which would read as out of memory.
  s->data = static_cast<std::byte*>(std::calloc(nbytes ? nbytes : 1, 1));
  if (!s->data) throw std::runtime_error("out of memory allocating " + std::to_string(nbytes) + " bytes");
  s->nbytes = nbytes;
  s->release = [](void* p) { std::free(p); };
  return s;
}

std::shared_ptr<Storage> Storage::borrow(void* data, size_t nbytes, std::function<void(void*)> release) {
  auto s = std::make_shared<Storage>();
  s->data = static_cast<std::byte*>(data);
  s->nbytes = nbytes;
  s->release = std::move(release);
  return s;
}

int64_t TensorImpl::numel() const {
  int64_t n = 1;
  for (auto s : sizes) n *= s;
  return n;
}

bool TensorImpl::is_contiguous() const {
  // As ATen: an empty tensor is contiguous whatever its strides; size-1 dims are ignored.
  if (numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

std::byte* TensorImpl::data() const {
  // ATen gives every tensor without elements a null data pointer, even a view
  // into a non-empty storage.
  if (!storage || numel() == 0) return nullptr;
  return storage->data + storage_offset * static_cast<int64_t>(element_size());
}

std::byte* TensorImpl::element(int64_t linear) const {
  int64_t offset = 0;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    int64_t i = linear % sizes[d];
    linear /= sizes[d];
    offset += i * strides[d];
  }
  return data() + offset * static_cast<int64_t>(element_size());
}

std::string TensorImpl::describe() const {
  if (!defined) return "undefined tensor";
  std::string s = dtype_info(dtype).name;
  s += "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  s += "]";
  if (device_type != device::kCPU) s += std::string(" on ") + device_name(device_type);
  return s;
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> st(sizes.size());
  int64_t acc = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    st[d] = acc;
    acc *= std::max<int64_t>(sizes[d], 1);
  }
  return st;
}

Tensor make_strided(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides, int32_t dt,
                    int32_t device_type, int32_t device_index) {
  auto t = std::make_shared<TensorImpl>();
  t->sizes = sizes;
  t->strides = strides;
  t->dtype = dt;
  t->device_type = device_type;
  t->device_index = device_index;
  if (device_type != device::kMeta) {
    // Bytes needed to reach the farthest element, as at::empty_strided computes it.
    int64_t extent = 1;
    bool empty = false;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == 0) empty = true;
      extent += (sizes[d] - 1) * strides[d];
    }
    t->storage = Storage::allocate(empty ? 0 : static_cast<size_t>(extent) * dtype_info(dt).size);
  }
  return t;
}

Tensor make_tensor(const std::vector<int64_t>& sizes, int32_t dt, int32_t device_type, int32_t device_index) {
  return make_strided(sizes, contiguous_strides(sizes), dt, device_type, device_index);
}

Tensor make_view(const TensorImpl& base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset) {
  auto t = std::make_shared<TensorImpl>(base);
  t->sizes = std::move(sizes);
  t->strides = std::move(strides);
  t->storage_offset = offset;
  return t;
}

Tensor undefined_tensor() {
  auto t = std::make_shared<TensorImpl>();
  t->defined = false;
  return t;
}

uint16_t float_to_half(float f) {
  uint32_t x = bits_of(f);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;
  return static_cast<uint16_t>(half);
}

float half_to_float(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0) {
    if (mant == 0) return float_of(sign);
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return float_of(sign | 0x7f800000 | (mant << 13));
  return float_of(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t float_to_bfloat16(float f) {
  uint32_t x = bits_of(f);
  if ((x & 0x7fffffff) > 0x7f800000) return 0x7fc0;  // NaN
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float bfloat16_to_float(uint16_t b) { return float_of(static_cast<uint32_t>(b) << 16); }

template <class T>
static T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
static void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

double read_double(const TensorImpl& t, int64_t i) {
  const std::byte* p = t.element(i);
  switch (t.dtype) {
    case dtype::kBool: return load<uint8_t>(p) != 0;
    case dtype::kUInt8: return load<uint8_t>(p);
    case dtype::kInt8: return load<int8_t>(p);
    case dtype::kInt16: return load<int16_t>(p);
    case dtype::kInt32: return load<int32_t>(p);
    case dtype::kInt64: return static_cast<double>(load<int64_t>(p));
    case dtype::kUInt16: return load<uint16_t>(p);
    case dtype::kUInt32: return load<uint32_t>(p);
    case dtype::kUInt64: return static_cast<double>(load<uint64_t>(p));
    case dtype::kFloat16: return half_to_float(load<uint16_t>(p));
    case dtype::kBFloat16: return bfloat16_to_float(load<uint16_t>(p));
    case dtype::kFloat32: return load<float>(p);
    case dtype::kFloat64: return load<double>(p);
  }
  throw std::runtime_error(std::string("the reference kernels do not compute with ") + dtype_info(t.dtype).name);
}

int64_t read_int(const TensorImpl& t, int64_t i) {
  const std::byte* p = t.element(i);
  switch (t.dtype) {
    case dtype::kBool: return load<uint8_t>(p) != 0;
    case dtype::kUInt8: return load<uint8_t>(p);
    case dtype::kInt8: return load<int8_t>(p);
    case dtype::kInt16: return load<int16_t>(p);
    case dtype::kInt32: return load<int32_t>(p);
    case dtype::kInt64: return load<int64_t>(p);
    case dtype::kUInt16: return load<uint16_t>(p);
    case dtype::kUInt32: return load<uint32_t>(p);
    case dtype::kUInt64: return static_cast<int64_t>(load<uint64_t>(p));
    default: return static_cast<int64_t>(read_double(t, i));
  }
}

void write_double(const TensorImpl& t, int64_t i, double v) {
  std::byte* p = t.element(i);
  switch (t.dtype) {
    case dtype::kBool: return store<uint8_t>(p, v != 0);
    case dtype::kUInt8: return store<uint8_t>(p, static_cast<uint8_t>(static_cast<int64_t>(v)));
    // Narrow integers through int64 (truncation toward zero, then wrap), as x86
    // and ATen's conversions behave; a direct cast of an out-of-range float is UB.
    case dtype::kInt8: return store<int8_t>(p, static_cast<int8_t>(static_cast<int64_t>(v)));
    case dtype::kInt16: return store<int16_t>(p, static_cast<int16_t>(static_cast<int64_t>(v)));
    case dtype::kInt32: return store<int32_t>(p, static_cast<int32_t>(static_cast<int64_t>(v)));
    case dtype::kInt64: return store<int64_t>(p, static_cast<int64_t>(v));
    case dtype::kUInt16: return store<uint16_t>(p, static_cast<uint16_t>(static_cast<int64_t>(v)));
    case dtype::kUInt32: return store<uint32_t>(p, static_cast<uint32_t>(static_cast<int64_t>(v)));
    case dtype::kUInt64: return store<uint64_t>(p, static_cast<uint64_t>(v));
    case dtype::kFloat16: return store<uint16_t>(p, float_to_half(static_cast<float>(v)));
    case dtype::kBFloat16: return store<uint16_t>(p, float_to_bfloat16(static_cast<float>(v)));
    case dtype::kFloat32: return store<float>(p, static_cast<float>(v));
    case dtype::kFloat64: return store<double>(p, v);
  }
  throw std::runtime_error(std::string("the reference kernels do not compute with ") + dtype_info(t.dtype).name);
}

void write_int(const TensorImpl& t, int64_t i, int64_t v) {
  // Integer results wrap to the element type (two's complement), as ATen's
  // integer kernels do; only floating types go through a conversion.
  std::byte* p = t.element(i);
  switch (t.dtype) {
    case dtype::kBool: return store<uint8_t>(p, v != 0);
    case dtype::kUInt8: return store<uint8_t>(p, static_cast<uint8_t>(v));
    case dtype::kInt8: return store<int8_t>(p, static_cast<int8_t>(v));
    case dtype::kInt16: return store<int16_t>(p, static_cast<int16_t>(v));
    case dtype::kInt32: return store<int32_t>(p, static_cast<int32_t>(v));
    case dtype::kInt64: return store<int64_t>(p, v);
    case dtype::kUInt16: return store<uint16_t>(p, static_cast<uint16_t>(v));
    case dtype::kUInt32: return store<uint32_t>(p, static_cast<uint32_t>(v));
    case dtype::kUInt64: return store<uint64_t>(p, static_cast<uint64_t>(v));
    default: return write_double(t, i, static_cast<double>(v));
  }
}

}  // namespace torchabi::runtime
