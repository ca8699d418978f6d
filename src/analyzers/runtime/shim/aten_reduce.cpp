// Reductions (sum, amax): the reduced dims collapse, the output is a new
// contiguous tensor of the reduced shape.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

// Which dims collapse (no dims: all of them), and the output shapes.
struct Reduction {
  std::vector<bool> reduce;
  std::vector<int64_t> keep_sizes;   // reduced dims as 1
  std::vector<int64_t> final_sizes;  // as returned
};

Reduction plan(const TensorImpl& t, const std::vector<int64_t>& dims, bool keepdim) {
  Reduction r;
  r.reduce.assign(t.sizes.size(), dims.empty());
  std::vector<bool> seen(t.sizes.size(), false);
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, t.dim());
    if (t.dim() == 0) continue;
    if (seen[w]) throw std::invalid_argument("dim " + std::to_string(w) + " appears multiple times in the list of dims");
    seen[w] = r.reduce[w] = true;
  }
  for (int64_t d = 0; d < t.dim(); ++d) {
    r.keep_sizes.push_back(r.reduce[d] ? 1 : t.sizes[d]);
    if (!r.reduce[d] || keepdim) r.final_sizes.push_back(r.keep_sizes.back());
  }
  return r;
}

// Linear index in the keepdim-shaped output for input element `i`.
int64_t out_index(const TensorImpl& t, const Reduction& r, int64_t i) {
  int64_t out = 0, mul = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    int64_t idx = i % t.sizes[d];
    i /= t.sizes[d];
    if (!r.reduce[d]) out += idx * mul;
    mul *= r.keep_sizes[d];
  }
  return out;
}

// Sums `self` (its values first converted to `dt`) into a tensor of `dt` shaped `r.keep_sizes`.
Tensor sum_into_new(const Tensor& self, const Reduction& r, int32_t dt) {
  Tensor out = empty(r.keep_sizes, like(*self, dt));
  if (!out->storage) return out;
  Tensor in = self->dtype == dt ? self : to(self, like(*self, dt), false);
  const bool integral = is_integral_kind(dt);
  std::vector<double> acc(out->numel(), 0.0);
  std::vector<int64_t> iacc(out->numel(), 0);
  for (int64_t i = 0; i < in->numel(); ++i) {
    int64_t o = out_index(*in, r, i);
    if (integral) iacc[o] += read_int(*in, i);
    else acc[o] += read_double(*in, i);
  }
  for (int64_t i = 0; i < out->numel(); ++i) {
    if (integral) write_int(*out, i, iacc[i]);
    else write_double(*out, i, acc[i]);
  }
  return out;
}

int32_t sum_dtype(const TensorImpl& self, std::optional<int32_t> dtype) {
  return dtype.value_or(is_integral_kind(self.dtype) ? dtype::kInt64 : self.dtype);
}

}  // namespace

Tensor amax(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim) {
  require_cpu(*self, "amax");
  if (dims.empty() && self->numel() == 0)
    throw std::invalid_argument("amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                "reduction dim with the 'dim' argument.");
  Reduction r = plan(*self, dims, keepdim);
  for (int64_t d = 0; d < self->dim(); ++d)
    if (r.reduce[d] && self->sizes[d] == 0)
      throw std::invalid_argument("amax(): Expected reduction dim " + std::to_string(d) + " to have non-zero size.");
  Tensor out = empty(r.keep_sizes, like(*self, self->dtype));
  // ATen picks a kernel by dtype only when there is something to compute.
  if (out->numel() > 0) require_dtype(!is_barebones_unsigned(self->dtype), "max_all", self->dtype);
  if (out->storage) {
    const int64_t n = out->numel();
    if (is_integral_kind(self->dtype)) {
      std::vector<int64_t> best(n, std::numeric_limits<int64_t>::min());
      for (int64_t i = 0; i < self->numel(); ++i) {
        int64_t& b = best[out_index(*self, r, i)];
        b = std::max(b, read_int(*self, i));
      }
      for (int64_t i = 0; i < n; ++i) write_int(*out, i, best[i]);
    } else {
      std::vector<double> best(n, -std::numeric_limits<double>::infinity());
      for (int64_t i = 0; i < self->numel(); ++i) {
        double v = read_double(*self, i);
        double& b = best[out_index(*self, r, i)];
        if (std::isnan(v) || v > b) b = std::isnan(b) ? b : v;
      }
      for (int64_t i = 0; i < n; ++i) write_double(*out, i, best[i]);
    }
  }
  return view(out, r.final_sizes);
}

Tensor sum(const Tensor& self, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
           std::optional<int32_t> dtype) {
  require_cpu(*self, "sum");
  Reduction r = plan(*self, dims.value_or(std::vector<int64_t>{}), keepdim);
  return view(sum_into_new(self, r, sum_dtype(*self, dtype)), r.final_sizes);
}

void sum_out(const Tensor& out, const Tensor& self, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
             std::optional<int32_t> dtype) {
  require_cpu(*self, "sum");
  // The sum is computed in out's dtype; an explicit dtype must agree with it.
  if (dtype && *dtype != out->dtype)
    throw std::invalid_argument(std::string("Expected out tensor to have dtype ") + aten_type_name(*dtype) +
                                ", but got " + aten_type_name(out->dtype) + " instead");
  Reduction r = plan(*self, dims.value_or(std::vector<int64_t>{}), keepdim);
  Tensor result = view(sum_into_new(self, r, out->dtype), r.final_sizes);
  if (out->sizes != result->sizes) {
    // resize_: contiguous strides, the same storage unless it is too small.
    out->sizes = result->sizes;
    out->strides = contiguous_strides(out->sizes);
    if (out->storage) {
      const size_t need = static_cast<size_t>(out->storage_offset + out->numel()) * out->element_size();
      if (need > out->storage->nbytes) {
        auto bigger = Storage::allocate(need);
        std::copy_n(out->storage->data, out->storage->nbytes, bigger->data);
        out->storage = bigger;
      }
    }
  }
  copy(out, result);
}

}  // namespace torchabi::runtime::aten
