// Operator entry points called directly rather than through the dispatcher:
// the aoti_torch_aten_* functions torch/csrc/stable/ops.h uses and the older
// aoti_torch_* helpers (clone, copy_, zero_, mm_out, ...).
#include <iostream>

#include "analyzers/runtime/shim/aten_ops.h"
#include "analyzers/runtime/shim/export.h"
#include "analyzers/runtime/shim/shim_util.h"

using namespace torchabi::runtime;

namespace {

// Factory arguments passed as optional pointers (null = unset).
aten::Options options(const int32_t* dtype, const int32_t* layout, const int32_t* device, int32_t device_index) {
  aten::Options o;
  if (dtype) o.dtype = *dtype;
  if (layout) o.layout = *layout;
  if (device) {
    o.device_type = *device;
    o.device_index = device_index;
  }
  return o;
}

AOTITorchError unary_ret(const char* fn, AtenTensorHandle self, AtenTensorHandle* ret,
                         Tensor (*op)(const Tensor&)) {
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret);
    *ret = new_tensor_handle(op(t), fn);
  });
}

}  // namespace

TORCHABI_SHIM AOTITorchError aoti_torch_clone(AtenTensorHandle self, AtenTensorHandle* ret) {
  return unary_ret("aoti_torch_clone", self, ret, [](const Tensor& t) { return aten::clone(t, std::nullopt); });
}

TORCHABI_SHIM AOTITorchError aoti_torch_clone_preserve_strides(AtenTensorHandle self, AtenTensorHandle* ret) {
  return unary_ret("aoti_torch_clone_preserve_strides", self, ret, [](const Tensor& t) {
    Tensor out = aten::empty_strided(t->sizes, t->strides, aten::Options{t->dtype, {}, t->device_type, t->device_index, {}});
    aten::copy(out, t);
    return out;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src, int32_t non_blocking) {
  const char* fn = "aoti_torch_copy_";
  return guarded(fn, [&] { aten::copy(tensor_arg(self, fn), tensor_arg(src, fn)); });
}

TORCHABI_SHIM AOTITorchError aoti_torch_tensor_copy_(AtenTensorHandle src, AtenTensorHandle dst) {
  const char* fn = "aoti_torch_tensor_copy_";
  return guarded(fn, [&] { aten::copy(tensor_arg(dst, fn), tensor_arg(src, fn)); });
}

TORCHABI_SHIM AOTITorchError aoti_torch_zero_(AtenTensorHandle self) {
  const char* fn = "aoti_torch_zero_";
  return guarded(fn, [&] { aten::fill(tensor_arg(self, fn), 0.0); });
}

TORCHABI_SHIM AOTITorchError aoti_torch_assign_tensors(AtenTensorHandle src, AtenTensorHandle dst) {
  const char* fn = "aoti_torch_assign_tensors";
  return guarded(fn, [&] {
    Tensor s = tensor_arg(src, fn);
    tensor_arg(dst, fn);
    use_handle(dst, HandleKind::Tensor, fn)->tensor = s;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_assign_tensors_out(AtenTensorHandle src, AtenTensorHandle* ret_dst) {
  const char* fn = "aoti_torch_assign_tensors_out";
  return guarded(fn, [&] {
    Tensor s = tensor_arg(src, fn);
    require_out(ret_dst);
    *ret_dst = new_tensor_handle(s, fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_view_dtype(AtenTensorHandle self, int32_t dtype, AtenTensorHandle* ret) {
  const char* fn = "aoti_torch_view_dtype";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret);
    *ret = new_tensor_handle(aten::view_dtype(t, dtype), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_mm_out(AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle mat2) {
  const char* fn = "aoti_torch_mm_out";
  return guarded(fn, [&] { aten::copy(tensor_arg(out, fn), aten::mm(tensor_arg(self, fn), tensor_arg(mat2, fn))); });
}

TORCHABI_SHIM AOTITorchError aoti_torch_bmm_out(AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle mat2) {
  const char* fn = "aoti_torch_bmm_out";
  return guarded(fn, [&] { aten::copy(tensor_arg(out, fn), aten::bmm(tensor_arg(self, fn), tensor_arg(mat2, fn))); });
}

TORCHABI_SHIM AOTITorchError aoti_torch_addmm_out(AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle mat1,
                                                   AtenTensorHandle mat2, float beta, float alpha) {
  const char* fn = "aoti_torch_addmm_out";
  return guarded(fn, [&] {
    aten::addmm_out(tensor_arg(out, fn), tensor_arg(self, fn), tensor_arg(mat1, fn), tensor_arg(mat2, fn), beta, alpha);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_check_inf_and_nan(const char* tensor_name, AtenTensorHandle tensor) {
  const char* fn = "aoti_torch_check_inf_and_nan";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(tensor, fn);
    if (!t->storage || !is_computable(t->dtype)) return;
    for (int64_t i = 0; i < t->numel(); ++i) {
      double v = read_double(*t, i);
      if (v != v || v - v != 0)
        throw std::invalid_argument(std::string("Found ") + (v != v ? "NaN" : "Inf") + " in " +
                                    (tensor_name ? tensor_name : "a tensor"));
    }
  });
}

TORCHABI_SHIM void aoti_torch_print_tensor_handle(AtenTensorHandle self, const char* msg) {
  if (TensorImpl* t = use_tensor(self, "aoti_torch_print_tensor_handle"))
    std::cerr << "[" << (msg ? msg : "") << "] " << t->describe() << "\n";
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_fill__Scalar(AtenTensorHandle self, double value) {
  const char* fn = "aoti_torch_aten_fill__Scalar";
  return guarded(fn, [&] { aten::fill(tensor_arg(self, fn), value); });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_narrow(AtenTensorHandle self, int64_t dim, int64_t start, int64_t length,
                                                     AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_narrow";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret0);
    *ret0 = new_tensor_handle(aten::narrow(t, dim, start, length), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_new_empty(AtenTensorHandle self, const int64_t* size, int64_t size_len_,
                                                        int32_t* dtype, int32_t* layout, int32_t* device,
                                                        int32_t device_index_, int32_t* pin_memory,
                                                        AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_new_empty";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret0);
    *ret0 = new_tensor_handle(aten::new_empty(t, int_array(size, size_len_), options(dtype, layout, device, device_index_)), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_new_zeros(AtenTensorHandle self, const int64_t* size, int64_t size_len_,
                                                        int32_t* dtype, int32_t* layout, int32_t* device,
                                                        int32_t device_index_, int32_t* pin_memory,
                                                        AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_new_zeros";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret0);
    Tensor r = aten::new_empty(t, int_array(size, size_len_), options(dtype, layout, device, device_index_));
    aten::fill(r, 0.0);
    *ret0 = new_tensor_handle(r, fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_pad(AtenTensorHandle self, const int64_t* pad, int64_t pad_len_,
                                                  const char* mode, double* value, AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_pad";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret0);
    std::optional<double> v;
    if (value) v = *value;
    *ret0 = new_tensor_handle(aten::pad(t, int_array(pad, pad_len_), mode ? mode : "constant", v), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_amax(AtenTensorHandle self, const int64_t* dim, int64_t dim_len_,
                                                   int32_t keepdim, AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_amax";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret0);
    *ret0 = new_tensor_handle(aten::amax(t, int_array(dim, dim_len_), keepdim != 0), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_full(const int64_t* size, int64_t size_len_, double fill_value,
                                                   int32_t* dtype, int32_t* layout, int32_t* device,
                                                   int32_t device_index_, int32_t* pin_memory, AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_full";
  return guarded(fn, [&] {
    require_out(ret0);
    *ret0 = new_tensor_handle(aten::full(int_array(size, size_len_), fill_value, options(dtype, layout, device, device_index_)), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_full_v2(const int64_t* size, int64_t size_len_, double fill_value,
                                                      int32_t* dtype, int32_t* layout, int32_t* device,
                                                      int32_t device_index_, int32_t* pin_memory,
                                                      int32_t* memory_format, AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_full_v2";
  return guarded(fn, [&] {
    require_out(ret0);
    aten::Options o = options(dtype, layout, device, device_index_);
    if (memory_format) o.memory_format = *memory_format;
    *ret0 = new_tensor_handle(aten::full(int_array(size, size_len_), fill_value, o), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_aten_subtract_Tensor(AtenTensorHandle self, AtenTensorHandle other,
                                                              double alpha, AtenTensorHandle* ret0) {
  const char* fn = "aoti_torch_aten_subtract_Tensor";
  return guarded(fn, [&] {
    Tensor a = tensor_arg(self, fn), b = tensor_arg(other, fn);
    require_out(ret0);
    // alpha reaches ATen as a floating Scalar: integral tensors refuse it.
    *ret0 = new_tensor_handle(aten::subtract(a, b, alpha, /*alpha_integral=*/false), fn);
  });
}
