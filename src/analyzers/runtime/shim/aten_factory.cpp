// Factories, copies and conversions. Devices other than CPU and meta are
// refused: the reference runtime runs kernels on the host only.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

void check_device(int32_t device_type) {
  if (device_type != device::kCPU && device_type != device::kMeta)
    throw std::invalid_argument(std::string("a ") + device_name(device_type) +
                                " tensor was requested; torchabi's reference runtime has CPU and meta tensors only");
}

void check_dtype(int32_t dt) {
  if (dtype_info(dt).size == 0) throw std::invalid_argument("unknown dtype code " + std::to_string(dt));
}

void check_layout(const Options& o) {
  if (o.layout && *o.layout != kLayoutStrided)
    throw std::invalid_argument("layout code " + std::to_string(*o.layout) +
                                " requested; the reference runtime creates strided tensors only");
}

// Scalar::to<T>() for a double: integers and float16 refuse values outside
// their range (and NaN/inf for integers); bool takes any value as != 0.
void check_fill_value(int32_t dt, double v) {
  auto range = [&](double lo, double hi) {
    if (std::isnan(v) || std::isinf(v) || v < lo || v > hi)
      throw std::invalid_argument("value cannot be converted to type " + std::string(dtype_info(dt).name) +
                                  " without overflow");
  };
  switch (dt) {
    case dtype::kUInt8: return range(0, 255);
    case dtype::kInt8: return range(-128, 127);
    case dtype::kInt16: return range(-32768, 32767);
    case dtype::kInt32: return range(std::numeric_limits<int32_t>::lowest(), std::numeric_limits<int32_t>::max());
    case dtype::kInt64:
      return range(static_cast<double>(std::numeric_limits<int64_t>::lowest()),
                   static_cast<double>(std::numeric_limits<int64_t>::max()));
    case dtype::kUInt16: return range(0, 65535);
    case dtype::kUInt32: return range(0, std::numeric_limits<uint32_t>::max());
    case dtype::kUInt64: return range(0, static_cast<double>(std::numeric_limits<uint64_t>::max()));
    case dtype::kFloat16:
      if (std::isfinite(v) && std::fabs(v) > 65504.0)
        throw std::invalid_argument("value cannot be converted to type at::Half without overflow");
      return;
    default: return;
  }
}

Options inherit(const Tensor& self, const Options& o) {
  Options eff = o;
  if (!eff.dtype) eff.dtype = self->dtype;
  if (!eff.device_type) {
    eff.device_type = self->device_type;
    eff.device_index = self->device_index;
  }
  return eff;
}

}  // namespace

Options like(const TensorImpl& t, int32_t dt) {
  Options o;
  o.dtype = dt;
  o.device_type = t.device_type;
  o.device_index = t.device_index;
  return o;
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

Tensor empty(const std::vector<int64_t>& size, const Options& o) {
  for (auto s : size)
    if (s < 0) throw std::invalid_argument("Trying to create tensor with negative dimension " + std::to_string(s));
  int32_t mf = o.memory_format.value_or(kMemoryFormatContiguous);
  if (mf == kMemoryFormatPreserve)
    throw std::invalid_argument("preserve memory format is unsupported by the contiguous operator");
  return empty_strided(size, strides_for(size, mf), o);
}

Tensor empty_strided(const std::vector<int64_t>& size, const std::vector<int64_t>& stride, const Options& o) {
  if (size.size() != stride.size()) throw std::invalid_argument("mismatch in length of strides and shape");
  for (auto s : size)
    if (s < 0) throw std::invalid_argument("Trying to create tensor with negative dimension " + std::to_string(s));
  int32_t dt = o.dtype.value_or(dtype::kFloat32);
  int32_t dev = o.device_type.value_or(device::kCPU);
  check_dtype(dt);
  check_device(dev);
  check_layout(o);
  return make_strided(size, stride, dt, dev, o.device_index);
}

Tensor empty_like(const Tensor& self, const Options& o) {
  Options eff = inherit(self, o);
  int32_t mf = o.memory_format.value_or(kMemoryFormatPreserve);
  eff.memory_format.reset();
  if (mf == kMemoryFormatPreserve) return empty_strided(self->sizes, preserve_strides(*self), eff);
  return empty_strided(self->sizes, strides_for(self->sizes, mf), eff);
}

Tensor new_empty(const Tensor& self, const std::vector<int64_t>& size, const Options& o) {
  Options eff = inherit(self, o);
  eff.memory_format.reset();
  return empty(size, eff);
}

Tensor full(const std::vector<int64_t>& size, double value, const Options& o) {
  Tensor t = empty(size, o);
  fill(t, value);
  return t;
}

void fill(const Tensor& self, double value) {
  check_fill_value(self->dtype, value);
  if (!self->storage) return;  // meta: nothing to write
  if (!is_computable(self->dtype))
    throw std::invalid_argument(std::string("fill_: the reference runtime does not compute with ") +
                                dtype_info(self->dtype).name);
  int64_t n = self->numel();
  for (int64_t i = 0; i < n; ++i) write_double(*self, i, value);
}

void copy(const Tensor& self, const Tensor& src) {
  if (src->sizes != self->sizes) {
    auto shape = broadcast_shapes(self->sizes, src->sizes);
    if (shape != self->sizes)
      throw std::invalid_argument("output with shape [" + std::to_string(self->dim()) +
                                  "-d] doesn't match the broadcast shape of the source");
    return copy(self, expand(src, self->sizes));
  }
  if (!self->storage || !src->storage) return;
  int64_t n = self->numel();
  if (self->dtype == src->dtype && self->is_contiguous() && src->is_contiguous() && self->data() != src->data()) {
    std::copy_n(src->data(), n * static_cast<int64_t>(self->element_size()), self->data());
    return;
  }
  if (!is_computable(self->dtype) || !is_computable(src->dtype)) {
    if (self->dtype != src->dtype)
      throw std::invalid_argument(std::string("copy_: the reference runtime does not convert ") +
                                  dtype_info(src->dtype).name + " to " + dtype_info(self->dtype).name);
    std::vector<std::byte> vals(static_cast<size_t>(n) * self->element_size());
    size_t es = self->element_size();
    for (int64_t i = 0; i < n; ++i) std::copy_n(src->element(i), es, vals.data() + i * es);
    for (int64_t i = 0; i < n; ++i) std::copy_n(vals.data() + i * es, es, self->element(i));
    return;
  }
  // Materialise first: `src` may overlap `self` (copy_ from a view of itself).
  const bool integral = is_integral_kind(src->dtype) && is_integral_kind(self->dtype);
  std::vector<double> vals(integral ? 0 : n);
  std::vector<int64_t> ints(integral ? n : 0);
  for (int64_t i = 0; i < n; ++i) {
    if (integral) ints[i] = read_int(*src, i);
    else vals[i] = read_double(*src, i);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (integral) write_int(*self, i, ints[i]);
    else write_double(*self, i, vals[i]);
  }
}

Tensor clone(const Tensor& self, std::optional<int32_t> memory_format) {
  Options o;
  o.dtype = self->dtype;
  o.device_type = self->device_type;
  o.device_index = self->device_index;
  int32_t mf = memory_format.value_or(kMemoryFormatPreserve);
  Tensor out = empty_strided(self->sizes, mf == kMemoryFormatPreserve ? preserve_strides(*self)
                                                                      : strides_for(self->sizes, mf), o);
  copy(out, self);
  return out;
}

Tensor contiguous(const Tensor& self, int32_t memory_format) {
  // A tensor that already is contiguous is returned as is, even for preserve_format.
  if (is_contiguous_as(*self, memory_format)) return self;
  if (memory_format == kMemoryFormatPreserve)
    throw std::invalid_argument("preserve memory format is unsupported by the contiguous operator");
  return clone(self, memory_format);
}

Tensor to(const Tensor& self, const Options& o, bool force_copy) {
  int32_t dt = o.dtype.value_or(self->dtype);
  int32_t dev = o.device_type.value_or(self->device_type);
  check_dtype(dt);
  check_layout(o);
  check_device(dev);
  int32_t mf = o.memory_format.value_or(kMemoryFormatPreserve);
  // ATen returns `self` itself when nothing would change; a requested memory
  // format counts as a change only if it differs from the suggested one.
  bool aliases = dt == self->dtype && dev == self->device_type &&
                 (mf == kMemoryFormatPreserve || suggest_memory_format(*self) == mf);
  if (aliases && !force_copy) return self;
  Options eff;
  eff.dtype = dt;
  eff.device_type = dev;
  eff.device_index = o.device_type ? o.device_index : self->device_index;
  Tensor out = empty_strided(self->sizes, mf == kMemoryFormatPreserve ? preserve_strides(*self)
                                                                      : strides_for(self->sizes, mf), eff);
  if (dev == device::kMeta || self->device_type == device::kMeta) return out;
  copy(out, self);
  return out;
}

}  // namespace torchabi::runtime::aten
