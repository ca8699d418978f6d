// Strides: which layouts ATen calls contiguous or dense, the strides of new
// tensors in each memory format, and the layout an element-wise op gives its
// output. Extensions observe these (is_contiguous, data pointers walked by
// hand), so they follow ATen's rules rather than always being contiguous.
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

// channels_last(_3d) order: which dims are walked fastest first.
bool strides_like_channels_last(const TensorImpl& t, const std::vector<int64_t>& order) {
  if (t.strides[1] == 0) return false;
  int64_t min = 0;
  for (int64_t d : order) {
    if (t.sizes[d] == 0 || t.strides[d] < min) return false;
    // N111-like tensors are ambiguous: ATen calls them contiguous.
    if (d == 0 && min == t.strides[1]) return false;
    min = t.strides[d];
    if (t.sizes[d] > 1) min *= t.sizes[d];
  }
  return true;
}

}  // namespace

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  int64_t n = std::max<int64_t>(ndim, 1);
  if (dim < -n || dim >= n)
    throw std::invalid_argument("Dimension out of range (expected to be in range of [" + std::to_string(-n) + ", " +
                                std::to_string(n - 1) + "], but got " + std::to_string(dim) + ")");
  return dim < 0 ? dim + n : dim;
}

std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      throw std::invalid_argument("The size of tensor a (" + std::to_string(x) + ") must match the size of tensor b (" +
                                  std::to_string(y) + ") at non-singleton dimension " + std::to_string(i));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

bool non_overlapping_and_dense(const TensorImpl& t) {
  if (t.dim() == 1) return t.sizes[0] < 2 || t.strides[0] == 1;
  std::vector<int64_t> perm(t.sizes.size());
  std::iota(perm.begin(), perm.end(), 0);
  // Dims of size < 2 go last; the others by increasing stride.
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (t.sizes[a] < 2) return false;
    if (t.sizes[b] < 2) return true;
    return t.strides[a] < t.strides[b];
  });
  int64_t require = 1;
  for (int64_t d : perm) {
    if (t.sizes[d] < 2) return true;
    if (t.strides[d] != require) return false;
    require *= t.sizes[d];
  }
  return true;
}

std::vector<int64_t> infer_dense_strides(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
  const size_t n = sizes.size();
  if (n == 0) return {};
  // perm[0] is the fastest-moving dim; start from the contiguous order.
  std::vector<int64_t> perm(n);
  for (size_t i = 0; i < n; ++i) perm[i] = static_cast<int64_t>(n - 1 - i);
  // 1: dim0 goes after dim1; -1: before; 0: ambiguous (0 strides keep the contiguous order).
  auto should_swap = [&](int64_t d0, int64_t d1) {
    if (strides[d0] == 0 || strides[d1] == 0) return 0;
    if (strides[d0] < strides[d1]) return -1;
    if (strides[d0] > strides[d1]) return 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  };
  for (size_t i = 1; i < n; ++i) {  // insertion sort that stops at ambiguity
    size_t d1 = i;
    for (size_t j = 1; j <= i; ++j) {
      size_t d0 = i - j;
      int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  std::vector<int64_t> out(n);
  int64_t stride = 1;
  for (int64_t d : perm) {
    out[d] = stride;
    if (sizes[d] > 1) stride *= sizes[d];
  }
  return out;
}

std::vector<int64_t> strides_for(const std::vector<int64_t>& sizes, int32_t memory_format) {
  if (memory_format == kMemoryFormatContiguous || memory_format == kMemoryFormatPreserve)
    return contiguous_strides(sizes);
  std::vector<int64_t> order;  // fastest first
  if (memory_format == kMemoryFormatChannelsLast) {
    if (sizes.size() != 4) throw std::invalid_argument("required rank 4 tensor to use channels_last format");
    order = {1, 3, 2, 0};
  } else if (memory_format == kMemoryFormatChannelsLast3d) {
    if (sizes.size() != 5) throw std::invalid_argument("required rank 5 tensor to use channels_last_3d format");
    order = {1, 4, 3, 2, 0};
  } else {
    throw std::invalid_argument("unknown memory format code " + std::to_string(memory_format));
  }
  std::vector<int64_t> out(sizes.size());
  int64_t stride = 1;
  for (int64_t d : order) {
    out[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  return out;
}

int32_t suggest_memory_format(const TensorImpl& t) {
  if (t.dim() == 4 && strides_like_channels_last(t, {1, 3, 2, 0})) return kMemoryFormatChannelsLast;
  if (t.dim() == 5 && strides_like_channels_last(t, {1, 4, 3, 2, 0})) return kMemoryFormatChannelsLast3d;
  return kMemoryFormatContiguous;
}

bool is_contiguous_as(const TensorImpl& t, int32_t memory_format) {
  if (memory_format == kMemoryFormatContiguous || memory_format == kMemoryFormatPreserve) return t.is_contiguous();
  if (t.numel() == 0) return true;
  std::vector<int64_t> order = memory_format == kMemoryFormatChannelsLast ? std::vector<int64_t>{1, 3, 2, 0}
                                                                          : std::vector<int64_t>{1, 4, 3, 2, 0};
  if (t.dim() != static_cast<int64_t>(order.size())) return false;
  int64_t expected = 1;
  for (int64_t d : order) {
    if (t.sizes[d] != 1) {
      if (t.strides[d] != expected) return false;
      expected *= t.sizes[d];
    }
  }
  return true;
}

std::vector<int64_t> preserve_strides(const TensorImpl& t) {
  if (non_overlapping_and_dense(t)) return t.strides;
  return infer_dense_strides(t.sizes, t.strides);
}

Tensor elementwise_output(const std::vector<const TensorImpl*>& inputs, const std::vector<int64_t>& shape,
                          int32_t dt) {
  Options o;
  o.dtype = dt;
  o.device_type = inputs.front()->device_type;
  o.device_index = inputs.front()->device_index;
  // Same-shaped inputs: contiguous if all are, channels_last if all are, and
  // the inputs' own strides if all are dense with the same strides.
  bool same_shape = true;
  for (const auto* t : inputs) same_shape &= t->sizes == shape;
  if (same_shape) {
    bool contiguous = true, channels_last = true, dense_same = true;
    for (const auto* t : inputs) {
      contiguous &= t->is_contiguous();
      channels_last &= is_contiguous_as(*t, kMemoryFormatChannelsLast);
      dense_same &= non_overlapping_and_dense(*t) && t->strides == inputs.front()->strides;
    }
    if (contiguous) return empty(shape, o);
    if (channels_last) return empty_strided(shape, strides_for(shape, kMemoryFormatChannelsLast), o);
    if (dense_same) return empty_strided(shape, inputs.front()->strides, o);
  }
  // Otherwise the dims are ordered by the inputs' strides (broadcast dims do
  // not vote; the first input that tells two dims apart decides).
  const size_t n = shape.size();
  if (n <= 1) return empty(shape, o);
  std::vector<std::vector<int64_t>> strides;
  for (const auto* t : inputs) {
    std::vector<int64_t> s(n, 0);
    const size_t lead = n - t->sizes.size();
    for (size_t d = 0; d < t->sizes.size(); ++d)
      s[lead + d] = t->sizes[d] == 1 && shape[lead + d] != 1 ? 0 : t->strides[d];
    strides.push_back(s);
  }
  std::vector<int64_t> perm(n);
  for (size_t i = 0; i < n; ++i) perm[i] = static_cast<int64_t>(n - 1 - i);
  auto should_swap = [&](int64_t d0, int64_t d1) {
    for (const auto& s : strides) {
      if (s[d0] == 0 || s[d1] == 0) continue;
      if (s[d0] < s[d1]) return -1;
      if (s[d0] > s[d1]) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < n; ++i) {
    size_t d1 = i;
    for (size_t j = i; j-- > 0;) {
      int c = should_swap(perm[j], perm[d1]);
      if (c > 0) {
        std::swap(perm[j], perm[d1]);
        d1 = j;
      } else if (c < 0) {
        break;
      }
    }
  }
  bool inverted = true;
  for (size_t i = 0; i < n; ++i) inverted &= perm[i] == static_cast<int64_t>(n - 1 - i);
  if (inverted) return empty(shape, o);
  std::vector<int64_t> out(n);
  int64_t stride = 1;
  for (int64_t d : perm) {
    out[d] = stride;
    stride *= shape[d];
  }
  return empty_strided(shape, out, o);
}

}  // namespace torchabi::runtime::aten
