// Reference CPU implementations of the ATen operators a stable extension can
// reach (torch/csrc/stable/ops.h and the aoti_torch_aten_* / legacy shim
// functions). Written for clarity, not speed: the point is to give the
// extension the results, shapes, strides and aliasing ATen would, so its own
// kernels and outputs can be checked. Invalid arguments throw
// std::invalid_argument with ATen's wording; the shim layer turns that into an
// error code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/tensor.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime::aten {

int64_t wrap_dim(int64_t dim, int64_t ndim);
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
int32_t promote_types(int32_t a, int32_t b);

// Options as the factory functions take them; unset = inherit / default.
struct Options {
  std::optional<int32_t> dtype;
  std::optional<int32_t> layout;
  std::optional<int32_t> device_type;
  int32_t device_index = -1;
  std::optional<int32_t> memory_format;
};

// Factories.
Tensor empty(const std::vector<int64_t>& size, const Options& o);
Tensor empty_strided(const std::vector<int64_t>& size, const std::vector<int64_t>& stride, const Options& o);
Tensor empty_like(const Tensor& self, const Options& o);
Tensor full(const std::vector<int64_t>& size, double value, const Options& o);
Tensor new_empty(const Tensor& self, const std::vector<int64_t>& size, const Options& o);

// In-place.
void fill(const Tensor& self, double value);
void copy(const Tensor& self, const Tensor& src);

// Copies and conversions.
Tensor clone(const Tensor& self, std::optional<int32_t> memory_format);
Tensor contiguous(const Tensor& self);
Tensor to(const Tensor& self, const Options& o, bool copy);

// Views (share storage with `self`).
Tensor transpose(const Tensor& self, int64_t d0, int64_t d1);
Tensor permute(const Tensor& self, const std::vector<int64_t>& dims);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor squeeze_dim(const Tensor& self, int64_t dim);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step);
Tensor view(const Tensor& self, std::vector<int64_t> size);
Tensor reshape(const Tensor& self, std::vector<int64_t> size);
Tensor expand(const Tensor& self, const std::vector<int64_t>& size);
Tensor flatten(const Tensor& self, int64_t start, int64_t end);
Tensor as_strided(const Tensor& self, const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                  int64_t offset);
Tensor view_dtype(const Tensor& self, int32_t dtype);

// Math.
Tensor pad(const Tensor& self, const std::vector<int64_t>& pad, const std::string& mode, double value);
Tensor amax(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim);
Tensor sum(const Tensor& self, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
           std::optional<int32_t> dtype);
Tensor subtract(const Tensor& self, const Tensor& other, double alpha);
Tensor binary(const Tensor& a, const Tensor& b, char op);  // '+', '-', '*', '/'
Tensor unary(const Tensor& self, const std::string& op);    // "neg", "abs", "exp"
Tensor mm(const Tensor& a, const Tensor& b);
Tensor bmm(const Tensor& a, const Tensor& b);
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
// out = beta * self + alpha * (mat1 @ mat2), written into `out`.
void addmm_out(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, double beta,
               double alpha);

// The boxed form the dispatcher calls: arguments in schema order, returns in
// schema order. Null when the runtime has no implementation of `qualified`.
using BoxedAten = std::vector<Value> (*)(std::vector<Value>& args);
BoxedAten find_boxed(const std::string& qualified);  // "aten::sum.dim_IntList"
std::vector<std::string> boxed_names();

}  // namespace torchabi::runtime::aten
