// Element-wise operators. As in ATen's TensorIterator, the inputs are
// broadcast, promoted to a common dtype (values rounded to it), computed in
// that dtype's "opmath" type (int64 for integers and bool, float for
// float32/float16/bfloat16, double for float64), and stored in an output laid
// out after the inputs. Which dtypes each op accepts was measured on PyTorch.
#include <array>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

// The value `v` takes once stored in `dt` (floating dtypes round).
double round_to(int32_t dt, double v) {
  switch (dt) {
    case dtype::kFloat16: return half_to_float(float_to_half(static_cast<float>(v)));
    case dtype::kBFloat16: return bfloat16_to_float(float_to_bfloat16(static_cast<float>(v)));
    case dtype::kFloat32: return static_cast<float>(v);
    default: return v;
  }
}

// The integer `v` takes once stored in `dt` (wraps).
int64_t wrap_to(int32_t dt, int64_t v) {
  switch (dt) {
    case dtype::kBool: return v != 0;
    case dtype::kUInt8: return static_cast<uint8_t>(v);
    case dtype::kInt8: return static_cast<int8_t>(v);
    case dtype::kInt16: return static_cast<int16_t>(v);
    case dtype::kInt32: return static_cast<int32_t>(v);
    case dtype::kUInt16: return static_cast<uint16_t>(v);
    case dtype::kUInt32: return static_cast<uint32_t>(v);
    default: return v;
  }
}

int bits_of(int32_t dt) { return static_cast<int>(dtype_info(dt).size * 8); }
bool is_signed(int32_t dt) { return dtype_info(dt).kind == ElementKind::Signed; }

// Runs `f` over the N broadcast inputs, computing in `dt` and writing an
// output of `dt`. `f` is called with int64_t for integral dt, float or double
// for floating dt.
template <size_t N, class F>
void compute_into(const Tensor& out, const std::array<Tensor, N>& in, int32_t dt, F f) {
  if (!out->storage) return;
  std::array<Tensor, N> ex;
  for (size_t k = 0; k < N; ++k) ex[k] = expand(in[k], out->sizes);
  const int64_t n = out->numel();
  // Results first: an in-place op's output may be one of its inputs.
  if (is_integral_kind(dt)) {
    std::vector<int64_t> r(n);
    auto arg = [&](size_t k, int64_t i) { return wrap_to(dt, read_int(*ex[k], i)); };
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (N == 1) r[i] = static_cast<int64_t>(f(arg(0, i)));
      else r[i] = static_cast<int64_t>(f(arg(0, i), arg(1, i)));
    }
    for (int64_t i = 0; i < n; ++i) write_int(*out, i, r[i]);
    return;
  }
  std::vector<double> r(n);
  auto run = [&](auto zero) {
    using T = decltype(zero);
    auto arg = [&](size_t k, int64_t i) { return static_cast<T>(round_to(dt, read_double(*ex[k], i))); };
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (N == 1) r[i] = static_cast<double>(f(arg(0, i)));
      else r[i] = static_cast<double>(f(arg(0, i), arg(1, i)));
    }
  };
  if (dt == dtype::kFloat64) run(0.0);
  else run(0.0f);
  for (int64_t i = 0; i < n; ++i) write_double(*out, i, r[i]);
}

template <class F>
Tensor map2(const Tensor& a, const Tensor& b, int32_t dt, F f) {
  Tensor out = elementwise_output({a.get(), b.get()}, broadcast_shapes(a->sizes, b->sizes), dt);
  compute_into<2>(out, {a, b}, dt, f);
  return out;
}

template <class F>
Tensor map1(const Tensor& a, int32_t dt, F f) {
  Tensor out = elementwise_output({a.get()}, a->sizes, dt);
  compute_into<1>(out, {a}, dt, f);
  return out;
}

int32_t common_dtype(const Tensor& a, const Tensor& b, const char* op) {
  require_cpu(*a, op);
  require_cpu(*b, op);
  return result_type({a.get(), b.get()});
}

// ATen's canCast: no floating into integers, nothing but bool into bool.
bool can_cast(int32_t from, int32_t to) {
  if (is_floating(from) && is_integral_kind(to)) return false;
  if (from != dtype::kBool && to == dtype::kBool) return false;
  return true;
}

// x // y for floating types, exactly as ATen's div_floor_floating.
template <class T>
T floor_div(T a, T b) {
  if (b == 0) return a / b;
  T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= T(1);
  if (div == 0) return std::copysign(T(0), a / b);
  T fl = std::floor(div);
  if (div - fl > T(0.5)) fl += T(1);
  return fl;
}

}  // namespace

Tensor binary(const Tensor& a, const Tensor& b, char op) {
  int32_t dt = common_dtype(a, b, "binary op");
  switch (op) {
    case '+':
      require_dtype(!is_barebones_unsigned(dt), "add_stub", dt);
      return map2(a, b, dt, [](auto x, auto y) { return decltype(x)(x + y); });
    case '-': return subtract(a, b, 1.0, true);
    case '*':
      if (dt == dtype::kBool) return map2(a, b, dt, [](auto x, auto y) { return decltype(x)(x && y); });
      return map2(a, b, dt, [](auto x, auto y) { return decltype(x)(x * y); });
    case '/':
      if (is_integral_kind(dt)) dt = dtype::kFloat32;  // true division
      return map2(a, b, dt, [](auto x, auto y) { return decltype(x)(x / y); });
  }
  throw std::invalid_argument(std::string("unknown binary op ") + op);
}

Tensor subtract(const Tensor& self, const Tensor& other, double alpha, bool alpha_integral) {
  int32_t dt = common_dtype(self, other, "sub");
  if (self->dtype == dtype::kBool && other->dtype == dtype::kBool)
    throw std::invalid_argument("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                                "`logical_xor()` operator instead.");
  if (self->dtype == dtype::kBool || other->dtype == dtype::kBool)
    throw std::invalid_argument("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                                "to invert a mask, use the `~` or `logical_not()` operator instead.");
  if (is_integral_kind(dt) && !alpha_integral)
    throw std::invalid_argument("For integral input tensors, argument alpha must not be a floating point number.");
  require_dtype(!is_barebones_unsigned(dt), "sub_stub", dt);
  if (is_integral_kind(dt)) {
    const auto ialpha = static_cast<int64_t>(alpha);
    return map2(self, other, dt, [ialpha](int64_t x, int64_t y) { return x - ialpha * y; });
  }
  return map2(self, other, dt, [alpha](auto x, auto y) {
    using T = decltype(x);
    return T(x - static_cast<T>(alpha) * y);
  });
}

Tensor bitwise(const Tensor& a, const Tensor& b, char op) {
  int32_t dt = common_dtype(a, b, "bitwise op");
  if (op == '&' || op == '|') {
    require_dtype(is_integral_kind(dt), op == '&' ? "bitwise_and_cpu" : "bitwise_or_cpu", dt);
    if (op == '&') return map2(a, b, dt, [](auto x, auto y) { return decltype(x)(int64_t(x) & int64_t(y)); });
    return map2(a, b, dt, [](auto x, auto y) { return decltype(x)(int64_t(x) | int64_t(y)); });
  }
  require_dtype(is_integral_kind(dt) && dt != dtype::kBool && !is_barebones_unsigned(dt),
                op == '<' ? "lshift_cpu" : "rshift_cpu", dt);
  const int bits = bits_of(dt);
  const bool sign = is_signed(dt);
  auto as_signed = [bits](int64_t v) {  // the shift amount read as the dtype's signed type
    return bits == 64 ? v : static_cast<int64_t>(static_cast<uint64_t>(v) << (64 - bits)) >> (64 - bits);
  };
  if (op == '<') {
    // Shifting by a negative amount or by the width or more gives 0.
    return map2(a, b, dt, [=](int64_t x, int64_t y) -> int64_t {
      if (as_signed(y) < 0 || y >= bits) return 0;
      return static_cast<int64_t>(static_cast<uint64_t>(x) << y);
    });
  }
  // Right shifts keep the sign; out-of-range amounts shift by width - signed.
  const int max_shift = bits - (sign ? 1 : 0);
  return map2(a, b, dt, [=](int64_t x, int64_t y) -> int64_t {
    if (as_signed(y) < 0 || y >= max_shift) return max_shift >= 64 ? (x < 0 ? -1 : 0) : x >> max_shift;
    return x >> y;
  });
}

Tensor floor_divide(const Tensor& a, const Tensor& b) {
  int32_t dt = common_dtype(a, b, "floor_divide");
  require_dtype(dt != dtype::kBool && !is_barebones_unsigned(dt), "div_floor_cpu", dt);
  if (is_integral_kind(dt)) {
    Tensor eb = expand(b, broadcast_shapes(a->sizes, b->sizes));
    for (int64_t i = 0; i < eb->numel() && eb->storage; ++i)
      if (read_int(*eb, i) == 0) throw std::invalid_argument("ZeroDivisionError");
    return map2(a, b, dt, [](int64_t x, int64_t y) -> int64_t {
      if ((x < 0) != (y < 0)) {
        int64_t q = x / y;
        return x % y ? q - 1 : q;
      }
      return x / y;
    });
  }
  return map2(a, b, dt, [](auto x, auto y) {
    if constexpr (std::is_floating_point_v<decltype(x)>) return floor_div(x, y);
    else return x;  // not reached: integral dtypes take the branch above
  });
}

Tensor unary(const Tensor& self, const std::string& op) {
  require_cpu(*self, op.c_str());
  int32_t dt = self->dtype;
  if (op == "exp") {
    if (is_integral_kind(dt)) dt = dtype::kFloat32;
    return map1(self, dt, [](auto x) { return decltype(x)(std::exp(x)); });
  }
  if (op == "neg" && dt == dtype::kBool)
    throw std::invalid_argument("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                                "invert a mask, use the `~` or `logical_not()` operator instead.");
  require_dtype(dt != dtype::kBool && !is_barebones_unsigned(dt), op == "neg" ? "neg_cpu" : "abs_cpu", dt);
  if (op == "neg") return map1(self, dt, [](auto x) { return decltype(x)(-x); });
  if (op == "abs") return map1(self, dt, [](auto x) { return decltype(x)(x < 0 ? -x : x); });
  throw std::invalid_argument("unknown unary op " + op);
}

std::vector<Tensor> foreach_mul(const std::vector<Tensor>& self, const std::vector<Tensor>& other) {
  if (self.empty()) throw std::invalid_argument("Tensor list must have at least one tensor.");
  if (self.size() != other.size())
    throw std::invalid_argument("Tensor lists must have the same number of tensors, got " +
                                std::to_string(self.size()) + " and " + std::to_string(other.size()));
  std::vector<Tensor> out;
  for (size_t i = 0; i < self.size(); ++i) out.push_back(binary(self[i], other[i], '*'));
  return out;
}

void foreach_mul_(const std::vector<Tensor>& self, const std::vector<Tensor>& other) {
  if (self.empty()) throw std::invalid_argument("Tensor list must have at least one tensor.");
  if (self.size() != other.size())
    throw std::invalid_argument("Tensor lists must have the same number of tensors, got " +
                                std::to_string(self.size()) + " and " + std::to_string(other.size()));
  for (size_t i = 0; i < self.size(); ++i) {
    Tensor r = binary(self[i], other[i], '*');
    if (!can_cast(r->dtype, self[i]->dtype))
      throw std::invalid_argument(std::string("result type ") + aten_type_name(r->dtype) +
                                  " can't be cast to the desired output type " + aten_type_name(self[i]->dtype));
    if (r->sizes != self[i]->sizes)
      throw std::invalid_argument("output with shape doesn't match the broadcast shape");
    copy(self[i], r);
  }
}

}  // namespace torchabi::runtime::aten
