// Factories, copies and conversions. Devices other than CPU and meta are
// refused: the reference runtime runs kernels on the host only.
#include <algorithm>
#include <numeric>
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

// True when the strides cover every element exactly once (ATen's
// non_overlapping_and_dense), so a preserve-format copy may keep them.
bool non_overlapping_and_dense(const TensorImpl& t) {
  std::vector<int64_t> order(t.sizes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (t.sizes[a] < 2) return false;
    if (t.sizes[b] < 2) return true;
    return t.strides[a] < t.strides[b];
  });
  int64_t expected = 1;
  for (int64_t d : order) {
    if (t.sizes[d] == 1) continue;
    if (t.strides[d] != expected) return false;
    expected *= t.sizes[d];
  }
  return true;
}

std::vector<int64_t> like_strides(const TensorImpl& self, std::optional<int32_t> memory_format) {
  int32_t mf = memory_format.value_or(kMemoryFormatPreserve);
  if (mf == kMemoryFormatPreserve && non_overlapping_and_dense(self)) return self.strides;
  if (mf != kMemoryFormatPreserve && mf != kMemoryFormatContiguous)
    throw std::invalid_argument("memory format code " + std::to_string(mf) +
                                " requested; the reference runtime creates contiguous tensors only");
  return contiguous_strides(self.sizes);
}

}  // namespace

Tensor empty(const std::vector<int64_t>& size, const Options& o) {
  for (auto s : size)
    if (s < 0) throw std::invalid_argument("Trying to create tensor with negative dimension " + std::to_string(s));
  return empty_strided(size, contiguous_strides(size), o);
}

Tensor empty_strided(const std::vector<int64_t>& size, const std::vector<int64_t>& stride, const Options& o) {
  if (size.size() != stride.size()) throw std::invalid_argument("mismatch in length of strides and shape");
  int32_t dt = o.dtype.value_or(dtype::kFloat32);
  int32_t dev = o.device_type.value_or(device::kCPU);
  check_dtype(dt);
  check_device(dev);
  check_layout(o);
  return make_strided(size, stride, dt, dev, o.device_index);
}

Tensor empty_like(const Tensor& self, const Options& o) {
  Options eff = o;
  if (!eff.dtype) eff.dtype = self->dtype;
  if (!eff.device_type) {
    eff.device_type = self->device_type;
    eff.device_index = self->device_index;
  }
  return empty_strided(self->sizes, like_strides(*self, o.memory_format), eff);
}

Tensor new_empty(const Tensor& self, const std::vector<int64_t>& size, const Options& o) {
  Options eff = o;
  if (!eff.dtype) eff.dtype = self->dtype;
  if (!eff.device_type) {
    eff.device_type = self->device_type;
    eff.device_index = self->device_index;
  }
  return empty(size, eff);
}

Tensor full(const std::vector<int64_t>& size, double value, const Options& o) {
  Tensor t = empty(size, o);
  fill(t, value);
  return t;
}

void fill(const Tensor& self, double value) {
  if (!self->storage) return;  // meta: nothing to write
  if (!is_computable(self->dtype))
    throw std::invalid_argument(std::string("fill_: the reference runtime does not compute with ") +
                                dtype_info(self->dtype).name);
  int64_t n = self->numel();
  for (int64_t i = 0; i < n; ++i) write_double(*self, i, value);
}

void copy(const Tensor& self, const Tensor& src) {
  if (src->numel() != self->numel() || src->sizes != self->sizes) {
    auto shape = broadcast_shapes(self->sizes, src->sizes);
    if (shape != self->sizes)
      throw std::invalid_argument("The size of tensor a (" + std::to_string(self->numel()) +
                                  ") must match the size of tensor b (" + std::to_string(src->numel()) + ")");
    Tensor expanded = expand(src, self->sizes);
    return copy(self, expanded);
  }
  if (!self->storage || !src->storage) return;
  int64_t n = self->numel();
  if (self->dtype == src->dtype && self->is_contiguous() && src->is_contiguous()) {
    std::copy_n(src->data(), n * static_cast<int64_t>(self->element_size()), self->data());
    return;
  }
  if (!is_computable(self->dtype) || !is_computable(src->dtype)) {
    if (self->dtype != src->dtype)
      throw std::invalid_argument(std::string("copy_: the reference runtime does not convert ") +
                                  dtype_info(src->dtype).name + " to " + dtype_info(self->dtype).name);
    size_t es = self->element_size();
    for (int64_t i = 0; i < n; ++i) std::copy_n(src->element(i), es, self->element(i));
    return;
  }
  // Materialise first: `src` may overlap `self` (copy_ from a view of itself).
  std::vector<double> vals(n);
  std::vector<int64_t> ints(n);
  bool integral = is_integral_kind(self->dtype) && is_integral_kind(src->dtype);
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
  Tensor out = empty_strided(self->sizes, like_strides(*self, memory_format), o);
  copy(out, self);
  out->requires_grad = false;
  return out;
}

Tensor contiguous(const Tensor& self) {
  if (self->is_contiguous()) return self;
  return clone(self, kMemoryFormatContiguous);
}

Tensor to(const Tensor& self, const Options& o, bool force_copy) {
  int32_t dt = o.dtype.value_or(self->dtype);
  int32_t dev = o.device_type.value_or(self->device_type);
  check_layout(o);
  check_device(dev);
  bool same = dt == self->dtype && dev == self->device_type &&
              (!o.memory_format || *o.memory_format == kMemoryFormatPreserve);
  if (same && !force_copy) return self;
  Options eff;
  eff.dtype = dt;
  eff.device_type = dev;
  eff.device_index = o.device_type ? o.device_index : self->device_index;
  Tensor out = empty_strided(self->sizes, like_strides(*self, o.memory_format), eff);
  if (dev == device::kMeta || self->device_type == device::kMeta) return out;
  copy(out, self);
  return out;
}

}  // namespace torchabi::runtime::aten
