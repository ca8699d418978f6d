// Arithmetic, reductions, matrix products and padding. Values are computed in
// double (int64 for integral results), then stored in the result dtype.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

void require_computable(const TensorImpl& t, const char* op) {
  if (!is_computable(t.dtype))
    throw std::invalid_argument(std::string(op) + ": the reference runtime does not compute with " +
                                dtype_info(t.dtype).name);
  if (t.device_type != device::kCPU && t.device_type != device::kMeta)
    throw std::invalid_argument(std::string(op) + ": expected CPU tensors");
}

int rank(int32_t dt) {
  switch (dtype_info(dt).kind) {
    case ElementKind::Bool: return 0;
    case ElementKind::Unsigned:
    case ElementKind::Signed: return 1;
    case ElementKind::Float: return 2;
    default: return 3;
  }
}

Options like(const TensorImpl& t, int32_t dt) {
  Options o;
  o.dtype = dt;
  o.device_type = t.device_type;
  o.device_index = t.device_index;
  return o;
}

// Reduction plan: which dims collapse, and the output shape.
struct Reduction {
  std::vector<bool> reduce;
  std::vector<int64_t> out_sizes;       // with keepdim
  std::vector<int64_t> out_sizes_final;  // as returned
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
    r.out_sizes.push_back(r.reduce[d] ? 1 : t.sizes[d]);
    if (!r.reduce[d] || keepdim) r.out_sizes_final.push_back(r.out_sizes.back());
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
    mul *= r.out_sizes[d];
  }
  return out;
}

}  // namespace

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

int32_t promote_types(int32_t a, int32_t b) {
  if (a == b) return a;
  int ra = rank(a), rb = rank(b);
  if (ra != rb) return ra > rb ? a : b;
  if (ra == 2) {
    bool lowp_a = a == dtype::kFloat16 || a == dtype::kBFloat16, lowp_b = b == dtype::kFloat16 || b == dtype::kBFloat16;
    if (lowp_a && lowp_b) return dtype::kFloat32;
    return dtype_info(a).size >= dtype_info(b).size ? a : b;
  }
  // Integers: the wider one; mixing signed and unsigned of equal width widens.
  size_t sa = dtype_info(a).size, sb = dtype_info(b).size;
  if (sa != sb) return sa > sb ? a : b;
  return dtype::kInt64;
}

Tensor binary(const Tensor& a, const Tensor& b, char op) {
  require_computable(*a, "binary op");
  require_computable(*b, "binary op");
  auto shape = broadcast_shapes(a->sizes, b->sizes);
  int32_t dt = promote_types(a->dtype, b->dtype);
  if (op == '/' && is_integral_kind(dt)) dt = dtype::kFloat32;
  Tensor out = empty(shape, like(*a, dt));
  if (!out->storage) return out;
  Tensor ea = expand(a, shape), eb = expand(b, shape);
  int64_t n = out->numel();
  bool integral = is_integral_kind(dt);
  for (int64_t i = 0; i < n; ++i) {
    if (integral) {
      int64_t x = read_int(*ea, i), y = read_int(*eb, i);
      write_int(*out, i, op == '+' ? x + y : op == '-' ? x - y : x * y);
    } else {
      double x = read_double(*ea, i), y = read_double(*eb, i);
      write_double(*out, i, op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y);
    }
  }
  return out;
}

Tensor subtract(const Tensor& self, const Tensor& other, double alpha) {
  if (alpha == 1.0) return binary(self, other, '-');
  Tensor scaled = clone(other, std::nullopt);
  if (is_integral_kind(scaled->dtype) && alpha != std::floor(alpha))
    throw std::invalid_argument("For integral input tensors, argument alpha must not be a floating point number.");
  for (int64_t i = 0; i < scaled->numel(); ++i) write_double(*scaled, i, read_double(*scaled, i) * alpha);
  return binary(self, scaled, '-');
}

Tensor unary(const Tensor& self, const std::string& op) {
  require_computable(*self, op.c_str());
  int32_t dt = self->dtype;
  if (op == "exp" && is_integral_kind(dt)) dt = dtype::kFloat32;
  if (op == "neg" && dt == dtype::kBool)
    throw std::invalid_argument("Negation, the `-` operator, on a bool tensor is not supported.");
  Tensor out = empty(self->sizes, like(*self, dt));
  if (!out->storage) return out;
  for (int64_t i = 0; i < out->numel(); ++i) {
    double x = read_double(*self, i);
    write_double(*out, i, op == "neg" ? -x : op == "abs" ? std::fabs(x) : std::exp(x));
  }
  return out;
}

Tensor amax(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim) {
  require_computable(*self, "amax");
  Reduction r = plan(*self, dims, keepdim);
  for (int64_t d = 0; d < self->dim(); ++d)
    if (r.reduce[d] && self->sizes[d] == 0)
      throw std::invalid_argument("amax(): Expected reduction dim " + std::to_string(d) + " to have non-zero size.");
  Tensor out = empty(r.out_sizes, like(*self, self->dtype));
  if (out->storage) {
    std::vector<double> best(out->numel(), -std::numeric_limits<double>::infinity());
    for (int64_t i = 0; i < self->numel(); ++i) {
      double v = read_double(*self, i);
      double& b = best[out_index(*self, r, i)];
      if (std::isnan(v) || v > b) b = v;
    }
    for (int64_t i = 0; i < out->numel(); ++i) write_double(*out, i, best[i]);
  }
  return view(out, r.out_sizes_final);
}

Tensor sum(const Tensor& self, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
           std::optional<int32_t> dtype) {
  require_computable(*self, "sum");
  int32_t dt = dtype.value_or(is_integral_kind(self->dtype) ? dtype::kInt64 : self->dtype);
  Reduction r = plan(*self, dims.value_or(std::vector<int64_t>{}), keepdim);
  Tensor out = empty(r.out_sizes, like(*self, dt));
  if (out->storage) {
    bool integral = is_integral_kind(dt);
    std::vector<double> acc(out->numel(), 0.0);
    std::vector<int64_t> iacc(out->numel(), 0);
    for (int64_t i = 0; i < self->numel(); ++i) {
      int64_t o = out_index(*self, r, i);
      if (integral) iacc[o] += read_int(*self, i);
      else acc[o] += read_double(*self, i);
    }
    for (int64_t i = 0; i < out->numel(); ++i) {
      if (integral) write_int(*out, i, iacc[i]);
      else write_double(*out, i, acc[i]);
    }
  }
  return view(out, r.out_sizes_final);
}

Tensor mm(const Tensor& a, const Tensor& b) {
  require_computable(*a, "mm");
  require_computable(*b, "mm");
  if (a->dim() != 2 || b->dim() != 2) throw std::invalid_argument("mm: expected 2-D tensors");
  if (a->sizes[1] != b->sizes[0])
    throw std::invalid_argument("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(a->sizes[0]) + "x" +
                                std::to_string(a->sizes[1]) + " and " + std::to_string(b->sizes[0]) + "x" +
                                std::to_string(b->sizes[1]) + ")");
  if (a->dtype != b->dtype)
    throw std::invalid_argument(std::string("expected m1 and m2 to have the same dtype, but got: ") +
                                dtype_info(a->dtype).name + " != " + dtype_info(b->dtype).name);
  int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1];
  Tensor out = empty({m, n}, like(*a, a->dtype));
  if (!out->storage) return out;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += read_double(*a, i * k + p) * read_double(*b, p * n + j);
      write_double(*out, i * n + j, s);
    }
  return out;
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  if (a->dim() != 3 || b->dim() != 3) throw std::invalid_argument("bmm: expected 3-D tensors");
  if (a->sizes[0] != b->sizes[0]) throw std::invalid_argument("bmm: batch sizes differ");
  std::vector<Tensor> parts;
  for (int64_t i = 0; i < a->sizes[0]; ++i) parts.push_back(unsqueeze(mm(select(a, 0, i), select(b, 0, i)), 0));
  if (parts.empty()) return empty({0, a->sizes[1], b->sizes[2]}, like(*a, a->dtype));
  return cat(parts, 0);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a->dim() == 1 && b->dim() == 1) return sum(binary(a, b, '*'), std::vector<int64_t>{}, false, std::nullopt);
  if (a->dim() == 2 && b->dim() == 2) return mm(a, b);
  if (a->dim() == 1 && b->dim() == 2) return squeeze_dim(mm(unsqueeze(a, 0), b), 0);
  if (a->dim() == 2 && b->dim() == 1) return squeeze_dim(mm(a, unsqueeze(b, 1)), 1);
  if (a->dim() == 3 && b->dim() == 3) return bmm(a, b);
  throw std::invalid_argument("matmul: the reference runtime multiplies 1-D, 2-D and 3-D (batched) tensors");
}

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  if (tensors.empty()) throw std::invalid_argument("torch.cat(): expected a non-empty list of Tensors");
  const Tensor& first = tensors.front();
  dim = wrap_dim(dim, first->dim());
  std::vector<int64_t> sizes = first->sizes;
  int32_t dt = first->dtype;
  for (size_t i = 1; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    if (t->dim() != first->dim())
      throw std::invalid_argument("Tensors must have same number of dimensions: got " + std::to_string(first->dim()) +
                                  " and " + std::to_string(t->dim()));
    for (int64_t d = 0; d < t->dim(); ++d)
      if (d != dim && t->sizes[d] != first->sizes[d])
        throw std::invalid_argument("Sizes of tensors must match except in dimension " + std::to_string(dim));
    sizes[dim] += t->sizes[dim];
    dt = promote_types(dt, t->dtype);
  }
  Tensor out = empty(sizes, like(*first, dt));
  int64_t offset = 0;
  for (const auto& t : tensors) {
    copy(narrow(out, dim, offset, t->sizes[dim]), t);
    offset += t->sizes[dim];
  }
  return out;
}

void addmm_out(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, double beta,
               double alpha) {
  Tensor prod = mm(mat1, mat2);
  Tensor base = expand(self, prod->sizes);
  for (int64_t i = 0; i < prod->numel(); ++i)
    write_double(*prod, i, alpha * read_double(*prod, i) + (beta == 0 ? 0.0 : beta * read_double(*base, i)));
  copy(out, prod);
}

Tensor pad(const Tensor& self, const std::vector<int64_t>& p, const std::string& mode, double value) {
  if (p.size() % 2 != 0) throw std::invalid_argument("Padding length must be divisible by 2");
  if (static_cast<int64_t>(p.size() / 2) > self->dim())
    throw std::invalid_argument("Padding length should be less than or equal to two times the input dimension but "
                                "got padding length " + std::to_string(p.size()) + " and input of dimension " +
                                std::to_string(self->dim()));
  if (mode != "constant")
    throw std::invalid_argument("pad mode '" + mode + "': the reference runtime pads with mode 'constant'");
  std::vector<int64_t> sizes = self->sizes;
  std::vector<int64_t> before(sizes.size(), 0);
  for (size_t i = 0; i < p.size() / 2; ++i) {
    size_t d = sizes.size() - 1 - i;
    before[d] = p[2 * i];
    sizes[d] += p[2 * i] + p[2 * i + 1];
    if (sizes[d] < 0) throw std::invalid_argument("pad: resulting padded dimension is negative");
  }
  Tensor out = full(sizes, value, like(*self, self->dtype));
  // Copy the overlap of the input and the output window.
  Tensor src = self, dst = out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t b = before[d];
    int64_t src_start = std::max<int64_t>(0, -b), dst_start = std::max<int64_t>(0, b);
    int64_t len = std::min(self->sizes[d] - src_start, sizes[d] - dst_start);
    if (len <= 0) return out;
    src = narrow(src, static_cast<int64_t>(d), src_start, len);
    dst = narrow(dst, static_cast<int64_t>(d), dst_start, len);
  }
  copy(dst, src);
  return out;
}

}  // namespace torchabi::runtime::aten
