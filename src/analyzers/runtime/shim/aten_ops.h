// Reference CPU implementations of the ATen operators a stable extension can
// reach (torch/csrc/stable/ops.h and the aoti_torch_aten_* / legacy shim
// functions). Written for clarity, not speed: the point is to give the
// extension the results, dtypes, shapes, strides and aliasing ATen would, so
// its own kernels and outputs can be checked. What ATen does was measured on
// real PyTorch (scripts/test-against-torch.sh compares every op here with it).
// Invalid arguments throw std::invalid_argument with ATen's wording; the shim
// layer turns that into an error code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/tensor.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime::aten {

// ---- dtypes (aten_types.cpp) ----
bool is_floating(int32_t dtype);
// uint16, uint32, uint64: ATen implements few kernels for them.
bool is_barebones_unsigned(int32_t dtype);
// c10::promoteTypes; throws where PyTorch refuses (uint16/32/64 with other integers).
int32_t promote_types(int32_t a, int32_t b);
// at::result_type of tensor operands: tensors with dimensions decide before
// 0-dim tensors of the same category (int8 tensor & int64 0-dim -> int8).
int32_t result_type(const std::vector<const TensorImpl*>& operands);
// Throws unless `t` is a CPU (or meta) tensor of a dtype the runtime computes with.
void require_cpu(const TensorImpl& t, const char* op);
// Throws ATen's "<kernel>" not implemented for '<Type>' unless `ok`.
void require_dtype(bool ok, const char* kernel, int32_t dtype);
// ATen's names for dtypes in error messages ("Float", "Long", ...).
const char* aten_type_name(int32_t dtype);

// ---- layout (aten_layout.cpp) ----
int64_t wrap_dim(int64_t dim, int64_t ndim);
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
bool non_overlapping_and_dense(const TensorImpl& t);
// Dense strides keeping the order of `strides` (ATen's infer_dense_strides).
std::vector<int64_t> infer_dense_strides(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides);
// Strides of a new tensor in `memory_format` (contiguous, channels_last, channels_last_3d).
std::vector<int64_t> strides_for(const std::vector<int64_t>& sizes, int32_t memory_format);
int32_t suggest_memory_format(const TensorImpl& t);
bool is_contiguous_as(const TensorImpl& t, int32_t memory_format);
// The strides of an empty_like/clone in preserve_format.
std::vector<int64_t> preserve_strides(const TensorImpl& t);
// The output an element-wise op (TensorIterator) allocates for `inputs`
// broadcast to `shape`: contiguous, or following the inputs' layout.
Tensor elementwise_output(const std::vector<const TensorImpl*>& inputs, const std::vector<int64_t>& shape,
                          int32_t dtype);

// Options as the factory functions take them; unset = inherit / default.
struct Options {
  std::optional<int32_t> dtype;
  std::optional<int32_t> layout;
  std::optional<int32_t> device_type;
  int32_t device_index = -1;
  std::optional<int32_t> memory_format;
};

// Options for a result of dtype `dt` on `t`'s device (aten_factory.cpp).
Options like(const TensorImpl& t, int32_t dt);
// "[2, 3]", as ATen prints shapes in its messages (aten_factory.cpp).
std::string shape_str(const std::vector<int64_t>& s);

// ---- factories, copies, conversions (aten_factory.cpp) ----
Tensor empty(const std::vector<int64_t>& size, const Options& o);
Tensor empty_strided(const std::vector<int64_t>& size, const std::vector<int64_t>& stride, const Options& o);
Tensor empty_like(const Tensor& self, const Options& o);
Tensor full(const std::vector<int64_t>& size, double value, const Options& o);
Tensor new_empty(const Tensor& self, const std::vector<int64_t>& size, const Options& o);
void fill(const Tensor& self, double value);  // fill_.Scalar: refuses values the dtype cannot hold
void copy(const Tensor& self, const Tensor& src);
Tensor clone(const Tensor& self, std::optional<int32_t> memory_format);
Tensor contiguous(const Tensor& self, int32_t memory_format = kMemoryFormatContiguous);
Tensor to(const Tensor& self, const Options& o, bool copy);

// ---- views (aten_shape.cpp; results share storage with `self`) ----
Tensor alias(const Tensor& self);
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

// ---- element-wise (aten_pointwise.cpp) ----
Tensor binary(const Tensor& a, const Tensor& b, char op);  // '+', '-', '*', '/' (true division)
// self - alpha * other; `alpha_integral` says whether the Scalar alpha holds an
// integer (the C shim passes a double, so it never does).
Tensor subtract(const Tensor& self, const Tensor& other, double alpha, bool alpha_integral = false);
Tensor bitwise(const Tensor& a, const Tensor& b, char op);  // '&', '|', '<' (left shift), '>' (right shift)
Tensor floor_divide(const Tensor& a, const Tensor& b);
Tensor unary(const Tensor& self, const std::string& op);    // "neg", "abs", "exp"
std::vector<Tensor> foreach_mul(const std::vector<Tensor>& self, const std::vector<Tensor>& other);
void foreach_mul_(const std::vector<Tensor>& self, const std::vector<Tensor>& other);

// ---- reductions (aten_reduce.cpp) ----
Tensor amax(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim);
Tensor sum(const Tensor& self, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
           std::optional<int32_t> dtype);
// sum.IntList_out: sums in out's dtype (or `dtype`), resizing `out` as ATen does.
void sum_out(const Tensor& out, const Tensor& self, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
             std::optional<int32_t> dtype);

// ---- matrix products (aten_linalg.cpp) ----
Tensor mm(const Tensor& a, const Tensor& b);
Tensor bmm(const Tensor& a, const Tensor& b);
Tensor matmul(const Tensor& a, const Tensor& b);
// out = beta * self + alpha * (mat1 @ mat2), written into `out`.
void addmm_out(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, double beta,
               double alpha);

// ---- indexing and joining (aten_index.cpp) ----
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
// mode: "constant", "reflect", "replicate", "circular"; `value` only for constant.
Tensor pad(const Tensor& self, const std::vector<int64_t>& pad, const std::string& mode, std::optional<double> value);

// The boxed form the dispatcher calls: arguments in schema order, returns in
// schema order. Null when the runtime has no implementation of `qualified`.
using BoxedAten = std::vector<Value> (*)(std::vector<Value>& args);
BoxedAten find_boxed(const std::string& qualified);  // "aten::sum.dim_IntList"
std::vector<std::string> boxed_names();

}  // namespace torchabi::runtime::aten
