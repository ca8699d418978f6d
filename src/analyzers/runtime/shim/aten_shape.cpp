// View and shape operators: results share storage with their input exactly
// where ATen's do, because extensions (and torchabi's alias checks) observe it.
#include <numeric>
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

// Resolves one -1 in `size` against `numel`, as ATen's infer_size does.
std::vector<int64_t> infer_size(std::vector<int64_t> size, int64_t numel) {
  int64_t known = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == -1) {
      if (infer) throw std::invalid_argument("only one dimension can be inferred");
      infer = i;
    } else if (size[i] < 0) {
      throw std::invalid_argument("invalid shape dimension " + std::to_string(size[i]));
    } else {
      known *= size[i];
    }
  }
  if (infer) {
    if (known == 0 || numel % known != 0)
      throw std::invalid_argument("shape '" + shape_str(size) + "' is invalid for input of size " +
                                  std::to_string(numel));
    size[*infer] = numel / known;
  } else if (known != numel) {
    throw std::invalid_argument("shape '" + shape_str(size) + "' is invalid for input of size " +
                                std::to_string(numel));
  }
  return size;
}

// Strides for viewing `t` as `size` without copying, if they exist (the
// chunk-matching algorithm ATen uses for view()).
std::optional<std::vector<int64_t>> view_strides(const TensorImpl& t, const std::vector<int64_t>& size) {
  if (t.numel() == 0 && t.sizes == size) return t.strides;
  if (t.numel() == 0 || t.sizes.empty()) return contiguous_strides(size);
  std::vector<int64_t> out(size.size());
  int64_t view_d = static_cast<int64_t>(size.size()) - 1;
  int64_t chunk_base_stride = t.strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    tensor_numel *= t.sizes[d];
    if (d == 0 || (t.sizes[d - 1] != 1 && t.strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || size[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= size[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = t.strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

}  // namespace

Tensor alias(const Tensor& self) { return make_view(*self, self->sizes, self->strides, self->storage_offset); }

Tensor transpose(const Tensor& self, int64_t d0, int64_t d1) {
  auto sizes = self->sizes, strides = self->strides;
  if (self->dim() == 0) return make_view(*self, sizes, strides, self->storage_offset);
  d0 = wrap_dim(d0, self->dim());
  d1 = wrap_dim(d1, self->dim());
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return make_view(*self, sizes, strides, self->storage_offset);
}

Tensor permute(const Tensor& self, const std::vector<int64_t>& dims) {
  if (static_cast<int64_t>(dims.size()) != self->dim())
    throw std::invalid_argument("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                                "length of the desired ordering of dimensions i.e. input.dim() = " +
                                std::to_string(self->dim()) + " is not equal to len(dims) = " +
                                std::to_string(dims.size()));
  std::vector<int64_t> sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], self->dim());
    if (seen[d]) throw std::invalid_argument("permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self->sizes[d];
    strides[i] = self->strides[d];
  }
  return make_view(*self, sizes, strides, self->storage_offset);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  dim = wrap_dim(dim, self->dim() + 1);
  auto sizes = self->sizes, strides = self->strides;
  int64_t stride = dim >= self->dim() ? 1 : self->sizes[dim] * self->strides[dim];
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return make_view(*self, sizes, strides, self->storage_offset);
}

Tensor squeeze_dim(const Tensor& self, int64_t dim) {
  auto sizes = self->sizes, strides = self->strides;
  if (self->dim() == 0) return make_view(*self, sizes, strides, self->storage_offset);
  dim = wrap_dim(dim, self->dim());
  if (sizes[dim] == 1) {
    sizes.erase(sizes.begin() + dim);
    strides.erase(strides.begin() + dim);
  }
  return make_view(*self, sizes, strides, self->storage_offset);
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  if (self->dim() == 0) throw std::invalid_argument("select() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, self->dim());
  int64_t n = self->sizes[dim];
  if (index < -n || index >= n)
    throw std::invalid_argument("select(): index " + std::to_string(index) + " out of range for tensor of size " +
                                shape_str(self->sizes) + " at dimension " + std::to_string(dim));
  if (index < 0) index += n;
  auto sizes = self->sizes, strides = self->strides;
  int64_t offset = self->storage_offset + index * strides[dim];
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return make_view(*self, sizes, strides, offset);
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  if (self->dim() == 0) throw std::invalid_argument("narrow() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, self->dim());
  int64_t n = self->sizes[dim];
  if (start < 0) start += n;
  if (start < 0 || length < 0 || start + length > n)
    throw std::invalid_argument("start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                                ") exceeds dimension size (" + std::to_string(n) + ").");
  auto sizes = self->sizes;
  sizes[dim] = length;
  return make_view(*self, sizes, self->strides, self->storage_offset + start * self->strides[dim]);
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start_opt, std::optional<int64_t> end_opt,
             int64_t step) {
  if (step <= 0) throw std::invalid_argument("slice step must be positive");
  dim = wrap_dim(dim, self->dim());
  int64_t n = self->sizes[dim];
  int64_t start = start_opt.value_or(0), end = end_opt.value_or(n);
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = std::clamp<int64_t>(start, 0, n);
  end = std::clamp<int64_t>(end, start, n);
  auto sizes = self->sizes, strides = self->strides;
  sizes[dim] = (end - start + step - 1) / step;
  strides[dim] *= step;
  return make_view(*self, sizes, strides, self->storage_offset + start * self->strides[dim]);
}

Tensor view(const Tensor& self, std::vector<int64_t> size) {
  size = infer_size(std::move(size), self->numel());
  auto strides = view_strides(*self, size);
  if (!strides)
    throw std::invalid_argument("view size is not compatible with input tensor's size and stride (at least one "
                                "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(*self, size, *strides, self->storage_offset);
}

Tensor reshape(const Tensor& self, std::vector<int64_t> size) {
  size = infer_size(std::move(size), self->numel());
  if (auto strides = view_strides(*self, size)) return make_view(*self, size, *strides, self->storage_offset);
  Tensor c = clone(self, kMemoryFormatContiguous);
  return make_view(*c, size, contiguous_strides(size), 0);
}

Tensor expand(const Tensor& self, const std::vector<int64_t>& size) {
  if (size.size() < self->sizes.size())
    throw std::invalid_argument("expand: the number of sizes provided (" + std::to_string(size.size()) +
                                ") must be greater or equal to the number of dimensions in the tensor (" +
                                std::to_string(self->dim()) + ")");
  size_t lead = size.size() - self->sizes.size();
  std::vector<int64_t> sizes(size.size()), strides(size.size());
  for (size_t i = 0; i < size.size(); ++i) {
    if (i < lead) {
      if (size[i] < 0) throw std::invalid_argument("expand: -1 is not allowed in a leading, non-existing dimension");
      sizes[i] = size[i];
      strides[i] = 0;
      continue;
    }
    int64_t have = self->sizes[i - lead];
    int64_t want = size[i] == -1 ? have : size[i];
    if (have != want && have != 1)
      throw std::invalid_argument("The expanded size of the tensor (" + std::to_string(want) +
                                  ") must match the existing size (" + std::to_string(have) +
                                  ") at non-singleton dimension " + std::to_string(i));
    sizes[i] = want;
    strides[i] = have == want ? self->strides[i - lead] : 0;
  }
  return make_view(*self, sizes, strides, self->storage_offset);
}

Tensor flatten(const Tensor& self, int64_t start, int64_t end) {
  if (self->dim() == 0) return reshape(self, {1});
  start = wrap_dim(start, self->dim());
  end = wrap_dim(end, self->dim());
  if (start > end) throw std::invalid_argument("flatten() has invalid args: start_dim cannot come after end_dim");
  if (start == end) return self;
  std::vector<int64_t> size(self->sizes.begin(), self->sizes.begin() + start);
  size.push_back(std::accumulate(self->sizes.begin() + start, self->sizes.begin() + end + 1, int64_t{1},
                                 std::multiplies<>()));
  size.insert(size.end(), self->sizes.begin() + end + 1, self->sizes.end());
  return reshape(self, size);
}

Tensor as_strided(const Tensor& self, const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                  int64_t offset) {
  if (size.size() != stride.size()) throw std::invalid_argument("mismatch in length of strides and shape");
  auto t = make_view(*self, size, stride, offset);
  if (t->storage && t->numel() > 0) {
    int64_t last = offset;
    for (size_t i = 0; i < size.size(); ++i) last += (size[i] - 1) * stride[i];
    if ((last + 1) * static_cast<int64_t>(t->element_size()) > static_cast<int64_t>(t->storage->nbytes))
      throw std::invalid_argument("setStorage: sizes " + shape_str(size) + ", strides " + shape_str(stride) +
                                  " and storage offset " + std::to_string(offset) +
                                  " require more storage than the tensor has (" +
                                  std::to_string(t->storage->nbytes) + " bytes)");
  }
  return t;
}

Tensor view_dtype(const Tensor& self, int32_t dt) {
  if (dtype_info(dt).size == 0) throw std::invalid_argument("unknown dtype code " + std::to_string(dt));
  const int64_t from = static_cast<int64_t>(self->element_size()), to = static_cast<int64_t>(dtype_info(dt).size);
  auto sizes = self->sizes, strides = self->strides;
  int64_t offset = self->storage_offset;
  const std::string what = std::string("to view ") + aten_type_name(self->dtype) + " as " + aten_type_name(dt) +
                           " (different element sizes)";
  if (from != to) {
    if (self->dim() == 0) throw std::invalid_argument("self.dim() cannot be 0 " + what);
    if (strides.back() != 1) throw std::invalid_argument("self.stride(-1) must be 1 " + what);
    if (from > to) {  // more, smaller elements
      const int64_t r = from / to;
      for (size_t i = 0; i + 1 < strides.size(); ++i) strides[i] *= r;
      sizes.back() *= r;
      offset *= r;
    } else {  // fewer, larger elements
      const int64_t r = to / from;
      if (sizes.back() % r != 0) throw std::invalid_argument("self.size(-1) must be divisible by " + std::to_string(r) + " " + what);
      if (offset % r != 0) throw std::invalid_argument("self.storage_offset() must be divisible by " + std::to_string(r) + " " + what);
      for (size_t i = 0; i + 1 < strides.size(); ++i) {
        if (strides[i] % r != 0)
          throw std::invalid_argument("self.stride(" + std::to_string(i) + ") must be divisible by " + std::to_string(r) + " " + what);
        strides[i] /= r;
      }
      sizes.back() /= r;
      offset /= r;
    }
  }
  auto t = make_view(*self, sizes, strides, offset);
  t->dtype = dt;
  return t;
}

}  // namespace torchabi::runtime::aten
