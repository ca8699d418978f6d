// Matrix products. Integers accumulate in int64 and wrap to the result dtype
// as ATen's integer GEMM does; floating types accumulate in double and round
// once (within torch.testing's tolerance of ATen's float accumulation).
// Results are new contiguous tensors, as ATen's mm/bmm/matmul return.
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

void check_operands(const Tensor& a, const Tensor& b, const char* kernel) {
  for (const auto* t : {a.get(), b.get()}) {
    if (t->device_type != device::kCPU && t->device_type != device::kMeta)
      throw std::invalid_argument(std::string(kernel) + ": expected CPU tensors");
    if (!is_computable(t->dtype))
      throw std::invalid_argument(std::string(kernel) + ": the reference runtime does not compute with " +
                                  dtype_info(t->dtype).name);
  }
  if (a->dtype != b->dtype)
    throw std::invalid_argument(std::string("expected m1 and m2 to have the same dtype, but got: ") +
                                aten_type_name(a->dtype) + " != " + aten_type_name(b->dtype));
  require_dtype(a->dtype != dtype::kBool && !is_barebones_unsigned(a->dtype), "addmm_impl_cpu_", a->dtype);
}

// a: [batch..., n, k], b: [batch..., k, p] (same batch shape) -> new [batch..., n, p].
Tensor batched_product(const Tensor& a, const Tensor& b) {
  const int64_t nd = a->dim();
  const int64_t n = a->sizes[nd - 2], k = a->sizes[nd - 1], p = b->sizes[nd - 1];
  std::vector<int64_t> shape(a->sizes.begin(), a->sizes.end() - 2);
  int64_t batches = 1;
  for (auto s : shape) batches *= s;
  shape.push_back(n);
  shape.push_back(p);
  Options o;
  o.dtype = a->dtype;
  o.device_type = a->device_type;
  o.device_index = a->device_index;
  Tensor out = empty(shape, o);
  if (!out->storage) return out;
  const bool integral = is_integral_kind(a->dtype);
  for (int64_t bt = 0; bt < batches; ++bt)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < p; ++j) {
        int64_t isum = 0;
        double dsum = 0;
        for (int64_t q = 0; q < k; ++q) {
          int64_t ai = (bt * n + i) * k + q, bi = (bt * k + q) * p + j;
          if (integral) isum += read_int(*a, ai) * read_int(*b, bi);
          else dsum += read_double(*a, ai) * read_double(*b, bi);
        }
        if (integral) write_int(*out, (bt * n + i) * p + j, isum);
        else write_double(*out, (bt * n + i) * p + j, dsum);
      }
  return out;
}

}  // namespace

Tensor mm(const Tensor& a, const Tensor& b) {
  if (a->dim() != 2) throw std::invalid_argument("self must be a matrix");
  if (b->dim() != 2) throw std::invalid_argument("mat2 must be a matrix");
  check_operands(a, b, "mm");
  if (a->sizes[1] != b->sizes[0])
    throw std::invalid_argument("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(a->sizes[0]) + "x" +
                                std::to_string(a->sizes[1]) + " and " + std::to_string(b->sizes[0]) + "x" +
                                std::to_string(b->sizes[1]) + ")");
  return batched_product(a, b);
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  if (a->dim() != 3) throw std::invalid_argument("batch1 must be a 3D tensor");
  if (b->dim() != 3) throw std::invalid_argument("batch2 must be a 3D tensor");
  check_operands(a, b, "bmm");
  if (b->sizes[0] != a->sizes[0] || b->sizes[1] != a->sizes[2])
    throw std::invalid_argument("Expected size for first two dimensions of batch2 tensor to be: [" +
                                std::to_string(a->sizes[0]) + ", " + std::to_string(a->sizes[2]) + "] but got: [" +
                                std::to_string(b->sizes[0]) + ", " + std::to_string(b->sizes[1]) + "].");
  return batched_product(a, b);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a->dim() == 0 || b->dim() == 0)
    throw std::invalid_argument("both arguments to matmul need to be at least 1D, but they are " +
                                std::to_string(a->dim()) + "D and " + std::to_string(b->dim()) + "D");
  check_operands(a, b, "matmul");
  // 1-D operands are a row (left) or a column (right) that the result drops.
  Tensor A = a->dim() == 1 ? unsqueeze(a, 0) : a;
  Tensor B = b->dim() == 1 ? unsqueeze(b, 1) : b;
  const int64_t n = A->sizes[A->dim() - 2], k = A->sizes[A->dim() - 1];
  const int64_t k2 = B->sizes[B->dim() - 2], p = B->sizes[B->dim() - 1];
  if (k != k2) {
    if (a->dim() == 1 && b->dim() == 1)
      throw std::invalid_argument("inconsistent tensor size, expected tensor [" + std::to_string(k) +
                                  "] and src [" + std::to_string(k2) + "] to have the same number of elements, but got " +
                                  std::to_string(k) + " and " + std::to_string(k2) + " elements respectively");
    throw std::invalid_argument("mat1 and mat2 shapes cannot be multiplied (" + shape_str(a->sizes) + " and " +
                                shape_str(b->sizes) + ")");
  }
  std::vector<int64_t> batch = broadcast_shapes(std::vector<int64_t>(A->sizes.begin(), A->sizes.end() - 2),
                                                std::vector<int64_t>(B->sizes.begin(), B->sizes.end() - 2));
  std::vector<int64_t> sa = batch, sb = batch;
  sa.insert(sa.end(), {n, k});
  sb.insert(sb.end(), {k, p});
  Tensor out = batched_product(expand(A, sa), expand(B, sb));
  std::vector<int64_t> final_shape = batch;
  if (a->dim() > 1) final_shape.push_back(n);
  if (b->dim() > 1) final_shape.push_back(p);
  return view(out, final_shape);
}

void addmm_out(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, double beta,
               double alpha) {
  Tensor prod = mm(mat1, mat2);
  Tensor base = expand(self, prod->sizes);
  for (int64_t i = 0; i < prod->numel(); ++i)
    write_double(*prod, i, alpha * read_double(*prod, i) + (beta == 0 ? 0.0 : beta * read_double(*base, i)));
  copy(out, prod);
}

}  // namespace torchabi::runtime::aten
