// Indexing, joining and padding: index_select, cat, pad (constant, reflect,
// replicate, circular), with ATen's argument checks.
#include <algorithm>
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

// Copies element `src_i` of `src` to element `dst_i` of `dst` (same dtype).
void copy_element(const TensorImpl& dst, int64_t dst_i, const TensorImpl& src, int64_t src_i) {
  std::copy_n(src.element(src_i), src.element_size(), dst.element(dst_i));
}

// Multi-index of linear index `i` in `sizes`.
std::vector<int64_t> unravel(int64_t i, const std::vector<int64_t>& sizes) {
  std::vector<int64_t> idx(sizes.size());
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    idx[d] = i % sizes[d];
    i /= sizes[d];
  }
  return idx;
}

int64_t ravel(const std::vector<int64_t>& idx, const std::vector<int64_t>& sizes) {
  int64_t i = 0;
  for (size_t d = 0; d < sizes.size(); ++d) i = i * sizes[d] + idx[d];
  return i;
}

enum class PadMode { Constant, Reflect, Replicate, Circular };

PadMode pad_mode(const std::string& mode) {
  if (mode == "constant") return PadMode::Constant;
  if (mode == "reflect") return PadMode::Reflect;
  if (mode == "replicate") return PadMode::Replicate;
  if (mode == "circular") return PadMode::Circular;
  throw std::invalid_argument("Unrecognised padding mode " + mode);
}

// Source index along one padded dim of size n for output index `o`, with
// left and right pads l and r (negative ones crop).
int64_t pad_source(PadMode m, int64_t o, int64_t l, int64_t r, int64_t n) {
  int64_t i = o - l;
  switch (m) {
    case PadMode::Reflect:
      if (i < 0) i = -i;
      if (i >= n) i = 2 * (n - 1) - i;
      return i;
    case PadMode::Replicate: return std::clamp<int64_t>(i, 0, n - 1);
    case PadMode::Circular: {
      // ATen copies the cropped input in, then wraps within it.
      const int64_t start = std::max<int64_t>(-l, 0), len = n - start - std::max<int64_t>(-r, 0);
      const int64_t j = o - std::max<int64_t>(l, 0);
      return len > 0 ? start + ((j % len) + len) % len : start;
    }
    case PadMode::Constant: return i;
  }
  return i;
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  if (index->dim() > 1) throw std::invalid_argument("index_select(): Index is supposed to be a vector");
  if (index->dtype != dtype::kInt64 && index->dtype != dtype::kInt32)
    throw std::invalid_argument(std::string("index_select(): Expected dtype int32 or int64 for index but got: ") +
                                aten_type_name(index->dtype));
  if (!is_computable(self->dtype) && dtype_info(self->dtype).size == 0)
    throw std::invalid_argument("index_select: unknown dtype");
  dim = wrap_dim(dim, self->dim());
  const int64_t count = index->numel();
  const int64_t size = self->dim() == 0 ? 1 : self->sizes[dim];
  std::vector<int64_t> idx(count);
  for (int64_t i = 0; i < count; ++i) {
    idx[i] = read_int(*index, i);
    if (idx[i] < 0 || idx[i] >= size) throw std::invalid_argument("index out of range in self");
  }
  std::vector<int64_t> shape = self->sizes;
  if (self->dim() == 0) {
    if (count != 1) throw std::invalid_argument("index_select(): Index to scalar can have only 1 value, got " +
                                                std::to_string(count) + " value(s)");
  } else {
    shape[dim] = count;
  }
  Tensor out = empty(shape, like(*self, self->dtype));
  if (!out->storage) return out;
  for (int64_t o = 0; o < out->numel(); ++o) {
    if (self->dim() == 0) {
      copy_element(*out, o, *self, 0);
      continue;
    }
    std::vector<int64_t> at = unravel(o, shape);
    at[dim] = idx[at[dim]];
    copy_element(*out, o, *self, ravel(at, self->sizes));
  }
  return out;
}

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  if (tensors.empty()) throw std::invalid_argument("torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i]->dim() == 0)
      throw std::invalid_argument("zero-dimensional tensor (at position " + std::to_string(i) +
                                  ") cannot be concatenated");
  // Legacy rule: 1-D empty tensors take no part (their shape need not match).
  std::vector<Tensor> parts;
  for (const auto& t : tensors)
    if (!(t->dim() == 1 && t->sizes[0] == 0)) parts.push_back(t);
  std::vector<const TensorImpl*> all;
  for (const auto& t : tensors) all.push_back(t.get());
  const int32_t dt = result_type(all);
  if (parts.empty()) return empty({0}, like(*tensors.front(), dt));
  const Tensor& first = parts.front();
  dim = wrap_dim(dim, first->dim());
  std::vector<int64_t> sizes = first->sizes;
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto& t = parts[i];
    if (t->dim() != first->dim())
      throw std::invalid_argument("Tensors must have same number of dimensions: got " + std::to_string(first->dim()) +
                                  " and " + std::to_string(t->dim()));
    for (int64_t d = 0; d < t->dim(); ++d)
      if (d != dim && t->sizes[d] != first->sizes[d])
        throw std::invalid_argument("Sizes of tensors must match except in dimension " + std::to_string(dim) +
                                    ". Expected size " + std::to_string(first->sizes[d]) + " but got size " +
                                    std::to_string(t->sizes[d]) + " for tensor number " + std::to_string(i) +
                                    " in the list.");
    sizes[dim] += t->sizes[dim];
  }
  // The output takes the inputs' memory format when they all agree.
  int32_t mf = suggest_memory_format(*first);
  for (const auto& t : parts)
    if (suggest_memory_format(*t) != mf) mf = kMemoryFormatContiguous;
  Options o = like(*first, dt);
  o.memory_format = mf;
  Tensor out = empty(sizes, o);
  int64_t offset = 0;
  for (const auto& t : parts) {
    copy(narrow(out, dim, offset, t->sizes[dim]), t);
    offset += t->sizes[dim];
  }
  return out;
}

Tensor pad(const Tensor& self, const std::vector<int64_t>& p, const std::string& mode_name,
           std::optional<double> value) {
  const int64_t ndim = self->dim();
  if (p.size() % 2 != 0) throw std::invalid_argument("Padding length must be divisible by 2");
  if (static_cast<int64_t>(p.size()) > ndim * 2)
    throw std::invalid_argument("Padding length should be less than or equal to two times the input dimension but "
                                "got padding length " + std::to_string(p.size()) + " and input of dimension " +
                                std::to_string(ndim));
  const PadMode mode = pad_mode(mode_name);
  const int64_t k = static_cast<int64_t>(p.size() / 2);  // padded dims: the last k
  if (mode != PadMode::Constant) {
    if (value && *value != 0)
      throw std::invalid_argument("Padding mode \"" + mode_name + "\" doesn't take in value argument");
    if (k < 1 || k > 3 || ndim < k + 1 || ndim > k + 2)
      throw std::invalid_argument("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
    if (mode != PadMode::Circular)
      require_dtype(self->dtype != dtype::kBool && !is_barebones_unsigned(self->dtype),
                    mode == PadMode::Reflect ? "reflection_pad1d" : "replication_pad1d", self->dtype);
  }
  std::vector<int64_t> sizes = self->sizes, before(ndim, 0), after(ndim, 0);
  for (int64_t i = 0; i < k; ++i) {
    const int64_t d = ndim - 1 - i, l = p[2 * i], r = p[2 * i + 1], n = self->sizes[d];
    before[d] = l;
    after[d] = r;
    sizes[d] = n + l + r;
    if (mode == PadMode::Constant && sizes[d] < 0)
      throw std::invalid_argument("The input size " + std::to_string(n) + ", plus negative padding " +
                                  std::to_string(l) + " and " + std::to_string(r) +
                                  " resulted in a negative output size, which is invalid. Check dimension " +
                                  std::to_string(d) + " of your input.");
    if (mode == PadMode::Reflect && (l >= n || r >= n))
      throw std::invalid_argument("Argument #4: Padding size should be less than the corresponding input dimension, "
                                  "but got: padding (" + std::to_string(l) + ", " + std::to_string(r) +
                                  ") at dimension " + std::to_string(d) + " of input " + shape_str(self->sizes));
    if (mode == PadMode::Circular && (l > n || r > n))
      throw std::invalid_argument("Padding value causes wrapping around more than once.");
    if (mode != PadMode::Constant && (n == 0 || sizes[d] < 1))
      throw std::invalid_argument("input (W: " + std::to_string(n) + ") is too small. Calculated output W: " +
                                  std::to_string(sizes[d]));
  }
  Tensor out = empty(sizes, Options{self->dtype, std::nullopt, self->device_type, self->device_index,
                                    suggest_memory_format(*self)});
  if (mode == PadMode::Constant) fill(out, value.value_or(0.0));
  if (!out->storage) return out;
  for (int64_t o = 0; o < out->numel(); ++o) {
    std::vector<int64_t> at = unravel(o, sizes);
    bool inside = true;
    for (int64_t d = ndim - k; d < ndim; ++d) {
      at[d] = pad_source(mode, at[d], before[d], after[d], self->sizes[d]);
      inside &= at[d] >= 0 && at[d] < self->sizes[d];
    }
    if (inside) copy_element(*out, o, *self, ravel(at, self->sizes));
  }
  return out;
}

}  // namespace torchabi::runtime::aten
