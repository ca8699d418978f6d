// Tensor handles: creation, metadata queries and data pointers. Handle
// semantics follow the shim's comments: "new reference" results are owned by
// the caller, sizes/strides/data pointers are borrowed from the tensor.
#include <cstring>

#include "analyzers/runtime/shim/aten_ops.h"
#include "analyzers/runtime/shim/export.h"
#include "analyzers/runtime/shim/shim_util.h"

using namespace torchabi::runtime;

namespace {

void check_cpu(int32_t device_type, const char* fn) {
  if (device_type != device::kCPU && device_type != device::kMeta) {
    record(EventKind::Unimplemented, fn,
           std::string("asked ") + fn + " for a " + device_name(device_type) +
               " tensor; the reference runtime has CPU and meta tensors only");
    throw Journalled("device not available");
  }
}

Tensor from_blob(void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
                 int64_t storage_offset, int32_t dt, int32_t device_type, int32_t device_index,
                 std::function<void(void*)> release, const char* fn) {
  check_cpu(device_type, fn);
  if (dtype_info(dt).size == 0) throw std::invalid_argument("unknown dtype code " + std::to_string(dt));
  auto sizes = int_array(sizes_ptr, ndim);
  auto strides = int_array(strides_ptr, ndim);
  if (!data) return aten::empty_strided(sizes, strides, aten::Options{dt, {}, device_type, device_index, {}});
  int64_t extent = storage_offset + 1;
  for (int64_t d = 0; d < ndim; ++d) extent += (sizes[d] - 1) * strides[d];
  auto t = std::make_shared<TensorImpl>();
  // The blob is addressed from its start; storage_offset counts elements into it.
  t->storage = Storage::borrow(data, static_cast<size_t>(extent) * dtype_info(dt).size, std::move(release));
  t->sizes = sizes;
  t->strides = strides;
  t->storage_offset = storage_offset;
  t->dtype = dt;
  t->device_type = device_type;
  t->device_index = device_index;
  return t;
}

template <class T>
AOTITorchError item(AtenTensorHandle h, T* ret, int32_t expected, const char* fn) {
  return guarded(fn, [&] {
    Tensor t = tensor_arg(h, fn);
    require_out(ret);
    if (t->numel() != 1)
      throw std::invalid_argument("a Tensor with " + std::to_string(t->numel()) +
                                  " elements cannot be converted to Scalar");
    if (t->dtype != expected)
      throw std::invalid_argument(std::string(fn) + " expects a " + dtype_info(expected).name + " tensor, got " +
                                  dtype_info(t->dtype).name);
    if (!t->storage) throw std::invalid_argument("cannot read the value of a meta tensor");
    std::memcpy(ret, t->data(), sizeof(T));
  });
}

template <class T>
AOTITorchError scalar(T value, AtenTensorHandle* ret, int32_t dt, const char* fn) {
  return guarded(fn, [&] {
    require_out(ret);
    Tensor t = make_tensor({}, dt);
    std::memcpy(t->data(), &value, sizeof(T));
    *ret = new_tensor_handle(t, fn);
  });
}

template <class F>
AOTITorchError query(AtenTensorHandle h, const char* fn, F&& body) {
  return guarded(fn, [&] { body(*tensor_arg(h, fn)); });
}

}  // namespace

TORCHABI_SHIM AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle tensor) {
  return release_handle(tensor, HandleKind::Tensor, "aoti_torch_delete_tensor_object") ? kSuccess : kFailure;
}

TORCHABI_SHIM AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle orig_handle, AtenTensorHandle* new_handle) {
  return guarded("aoti_torch_new_tensor_handle", [&] {
    Tensor t = tensor_arg(orig_handle, "aoti_torch_new_tensor_handle");
    require_out(new_handle);
    *new_handle = new_tensor_handle(t, "aoti_torch_new_tensor_handle");
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_new_uninitialized_tensor(AtenTensorHandle* ret) {
  return guarded("aoti_torch_new_uninitialized_tensor", [&] {
    require_out(ret);
    *ret = new_tensor_handle(undefined_tensor(), "aoti_torch_new_uninitialized_tensor");
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t* sizes_ptr,
                                                       const int64_t* strides_ptr, int32_t dtype, int32_t device_type,
                                                       int32_t device_index, AtenTensorHandle* ret_new_tensor) {
  const char* fn = "aoti_torch_empty_strided";
  return guarded(fn, [&] {
    check_cpu(device_type, fn);
    require_out(ret_new_tensor);
    auto t = aten::empty_strided(int_array(sizes_ptr, ndim), int_array(strides_ptr, ndim),
                                 aten::Options{dtype, {}, device_type, device_index, {}});
    *ret_new_tensor = new_tensor_handle(t, fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_empty_strided_pinned(int64_t ndim, const int64_t* sizes_ptr,
                                                              const int64_t* strides_ptr, int32_t dtype,
                                                              int32_t device_type, int32_t device_index,
                                                              AtenTensorHandle* ret_new_tensor) {
  const char* fn = "aoti_torch_empty_strided_pinned";
  return guarded(fn, [&] {
    check_cpu(device_type, fn);
    require_out(ret_new_tensor);
    auto t = aten::empty_strided(int_array(sizes_ptr, ndim), int_array(strides_ptr, ndim),
                                 aten::Options{dtype, {}, device_type, device_index, {}});
    *ret_new_tensor = new_tensor_handle(t, fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_create_tensor_from_blob(void* data, int64_t ndim, const int64_t* sizes_ptr,
                                                                 const int64_t* strides_ptr, int64_t storage_offset,
                                                                 int32_t dtype, int32_t device_type,
                                                                 int32_t device_index, AtenTensorHandle* ret) {
  const char* fn = "aoti_torch_create_tensor_from_blob";
  return guarded(fn, [&] {
    require_out(ret);
    *ret = new_tensor_handle(
        from_blob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type, device_index, {}, fn), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_create_tensor_from_blob_v2(
    void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr, int64_t storage_offset,
    int32_t dtype, int32_t device_type, int32_t device_index, AtenTensorHandle* ret, int32_t layout,
    const uint8_t* opaque_metadata, int64_t opaque_metadata_size) {
  const char* fn = "aoti_torch_create_tensor_from_blob_v2";
  return guarded(fn, [&] {
    require_out(ret);
    if (layout != kLayoutStrided)
      throw std::invalid_argument("layout code " + std::to_string(layout) +
                                  ": the reference runtime creates strided tensors only");
    *ret = new_tensor_handle(
        from_blob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type, device_index, {}, fn), fn);
  });
}

TORCHABI_SHIM AOTITorchError torch_from_blob(void* data, int64_t ndim, const int64_t* sizes_ptr,
                                              const int64_t* strides_ptr, int64_t storage_offset, int32_t dtype,
                                              int32_t device_type, int32_t device_index, AtenTensorHandle* ret,
                                              int32_t layout, const uint8_t* opaque_metadata,
                                              int64_t opaque_metadata_size, void (*deleter)(void*, void*),
                                              void* deleter_ctx) {
  const char* fn = "torch_from_blob";
  return guarded(fn, [&] {
    require_out(ret);
    if (layout != kLayoutStrided)
      throw std::invalid_argument("layout code " + std::to_string(layout) +
                                  ": the reference runtime creates strided tensors only");
    std::function<void(void*)> release;
    if (deleter) release = [deleter, deleter_ctx](void* p) { deleter(p, deleter_ctx); };
    *ret = new_tensor_handle(from_blob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type,
                                       device_index, std::move(release), fn),
                             fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch__reinterpret_tensor(AtenTensorHandle self, int64_t ndim,
                                                             const int64_t* sizes_ptr, const int64_t* strides_ptr,
                                                             int64_t storage_offset, AtenTensorHandle* ret_new_tensor) {
  const char* fn = "aoti_torch__reinterpret_tensor";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret_new_tensor);
    *ret_new_tensor = new_tensor_handle(
        aten::as_strided(t, int_array(sizes_ptr, ndim), int_array(strides_ptr, ndim), storage_offset), fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_as_strided(AtenTensorHandle self, const int64_t* sizes_ptr,
                                                    const int64_t* strides_ptr, AtenTensorHandle* ret) {
  const char* fn = "aoti_torch_as_strided";
  return guarded(fn, [&] {
    Tensor t = tensor_arg(self, fn);
    require_out(ret);
    *ret = new_tensor_handle(
        aten::as_strided(t, int_array(sizes_ptr, t->dim()), int_array(strides_ptr, t->dim()), t->storage_offset),
        fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch__alloc_from_pool(AtenTensorHandle self, int64_t offset_bytes, int32_t dtype,
                                                          int64_t ndim, const int64_t* sizes_ptr,
                                                          const int64_t* strides_ptr,
                                                          AtenTensorHandle* ret_new_tensor) {
  const char* fn = "aoti_torch__alloc_from_pool";
  return guarded(fn, [&] {
    Tensor pool = tensor_arg(self, fn);
    require_out(ret_new_tensor);
    size_t es = dtype_info(dtype).size;
    if (es == 0) throw std::invalid_argument("unknown dtype code " + std::to_string(dtype));
    if (offset_bytes < 0 || offset_bytes % static_cast<int64_t>(es) != 0)
      throw std::invalid_argument("offset_bytes must be a non-negative multiple of the element size");
    auto view = std::make_shared<TensorImpl>(*pool);
    view->dtype = dtype;
    view->sizes = int_array(sizes_ptr, ndim);
    view->strides = int_array(strides_ptr, ndim);
    view->storage_offset = offset_bytes / static_cast<int64_t>(es);
    int64_t last = view->storage_offset;
    for (int64_t d = 0; d < ndim; ++d) last += (view->sizes[d] - 1) * view->strides[d];
    if (view->numel() > 0 && pool->storage &&
        static_cast<size_t>((last + 1) * static_cast<int64_t>(es)) > pool->storage->nbytes)
      throw std::invalid_argument("the requested tensor does not fit in the pool's storage");
    *ret_new_tensor = new_tensor_handle(view, fn);
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  return query(tensor, "aoti_torch_get_data_ptr", [&](const TensorImpl& t) {
    require_out(ret_data_ptr);
    *ret_data_ptr = t.data();
  });
}

TORCHABI_SHIM AOTITorchError torch_get_mutable_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  return query(tensor, "torch_get_mutable_data_ptr", [&](const TensorImpl& t) {
    require_out(ret_data_ptr);
    *ret_data_ptr = t.data();
  });
}

TORCHABI_SHIM AOTITorchError torch_get_const_data_ptr(AtenTensorHandle tensor, const void** ret_data_ptr) {
  return query(tensor, "torch_get_const_data_ptr", [&](const TensorImpl& t) {
    require_out(ret_data_ptr);
    *ret_data_ptr = t.data();
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle tensor, int64_t* ret_size) {
  return query(tensor, "aoti_torch_get_storage_size", [&](const TensorImpl& t) {
    require_out(ret_size);
    *ret_size = t.storage ? static_cast<int64_t>(t.storage->nbytes) : 0;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_storage_numel(AtenTensorHandle tensor, int64_t* ret_numel) {
  return query(tensor, "aoti_torch_get_storage_numel", [&](const TensorImpl& t) {
    require_out(ret_numel);
    *ret_numel = t.storage && t.element_size() ? static_cast<int64_t>(t.storage->nbytes / t.element_size()) : 0;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t* ret_dim) {
  return query(tensor, "aoti_torch_get_dim", [&](const TensorImpl& t) {
    require_out(ret_dim);
    *ret_dim = t.dim();
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_numel(AtenTensorHandle tensor, int64_t* ret_numel) {
  return query(tensor, "aoti_torch_get_numel", [&](const TensorImpl& t) {
    require_out(ret_numel);
    *ret_numel = t.numel();
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t** ret_sizes) {
  return query(tensor, "aoti_torch_get_sizes", [&](const TensorImpl& t) {
    require_out(ret_sizes);
    *ret_sizes = const_cast<int64_t*>(t.sizes.data());
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_size(AtenTensorHandle tensor, int64_t d, int64_t* ret_size) {
  return query(tensor, "aoti_torch_get_size", [&](const TensorImpl& t) {
    require_out(ret_size);
    *ret_size = t.sizes.at(aten::wrap_dim(d, t.dim()));
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor, int64_t** ret_strides) {
  return query(tensor, "aoti_torch_get_strides", [&](const TensorImpl& t) {
    require_out(ret_strides);
    *ret_strides = const_cast<int64_t*>(t.strides.data());
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_stride(AtenTensorHandle tensor, int64_t d, int64_t* ret_stride) {
  return query(tensor, "aoti_torch_get_stride", [&](const TensorImpl& t) {
    require_out(ret_stride);
    *ret_stride = t.strides.at(aten::wrap_dim(d, t.dim()));
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t* ret_dtype) {
  return query(tensor, "aoti_torch_get_dtype", [&](const TensorImpl& t) {
    require_out(ret_dtype);
    *ret_dtype = t.dtype;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor, int32_t* ret_device_type) {
  return query(tensor, "aoti_torch_get_device_type", [&](const TensorImpl& t) {
    require_out(ret_device_type);
    *ret_device_type = t.device_type;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor, int32_t* ret_device_index) {
  return query(tensor, "aoti_torch_get_device_index", [&](const TensorImpl& t) {
    require_out(ret_device_index);
    *ret_device_index = t.device_index;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_layout(AtenTensorHandle tensor, int32_t* ret_layout) {
  return query(tensor, "aoti_torch_get_layout", [&](const TensorImpl& t) {
    require_out(ret_layout);
    *ret_layout = t.layout;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle tensor, int64_t* ret_storage_offset) {
  return query(tensor, "aoti_torch_get_storage_offset", [&](const TensorImpl& t) {
    require_out(ret_storage_offset);
    *ret_storage_offset = t.storage_offset;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_is_contiguous(AtenTensorHandle tensor, bool* ret_is_contiguous) {
  return query(tensor, "aoti_torch_is_contiguous", [&](const TensorImpl& t) {
    require_out(ret_is_contiguous);
    *ret_is_contiguous = t.is_contiguous();
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_is_defined(AtenTensorHandle tensor, bool* ret_is_defined) {
  return query(tensor, "aoti_torch_is_defined", [&](const TensorImpl& t) {
    require_out(ret_is_defined);
    *ret_is_defined = t.defined;
  });
}

TORCHABI_SHIM AOTITorchError torch_has_storage(AtenTensorHandle tensor, bool* ret_has_storage) {
  return query(tensor, "torch_has_storage", [&](const TensorImpl& t) {
    require_out(ret_has_storage);
    *ret_has_storage = t.defined && t.storage != nullptr;
  });
}

TORCHABI_SHIM AOTITorchError torch_set_requires_grad(AtenTensorHandle tensor, bool requires_grad) {
  return query(tensor, "torch_set_requires_grad", [&](const TensorImpl& t) {
    const_cast<TensorImpl&>(t).requires_grad = requires_grad;
  });
}

TORCHABI_SHIM size_t aoti_torch_dtype_element_size(int32_t dtype) { return dtype_info(dtype).size; }

#define TORCHABI_ITEM(name, type, code) \
  TORCHABI_SHIM AOTITorchError aoti_torch_item_##name(AtenTensorHandle tensor, type* ret_value) { \
    return item(tensor, ret_value, code, "aoti_torch_item_" #name);                               \
  }
TORCHABI_ITEM(float16, torchabi_half, dtype::kFloat16)
TORCHABI_ITEM(float32, float, dtype::kFloat32)
TORCHABI_ITEM(float64, double, dtype::kFloat64)
TORCHABI_ITEM(uint8, uint8_t, dtype::kUInt8)
TORCHABI_ITEM(uint16, uint16_t, dtype::kUInt16)
TORCHABI_ITEM(uint32, uint32_t, dtype::kUInt32)
TORCHABI_ITEM(uint64, uint64_t, dtype::kUInt64)
TORCHABI_ITEM(int8, int8_t, dtype::kInt8)
TORCHABI_ITEM(int16, int16_t, dtype::kInt16)
TORCHABI_ITEM(int32, int32_t, dtype::kInt32)
TORCHABI_ITEM(int64, int64_t, dtype::kInt64)
TORCHABI_ITEM(bool, bool, dtype::kBool)
TORCHABI_ITEM(bfloat16, torchabi_bfloat16, dtype::kBFloat16)
TORCHABI_ITEM(complex64, torchabi_complex_float, dtype::kComplex64)
#undef TORCHABI_ITEM

#define TORCHABI_SCALAR(name, type, code) \
  TORCHABI_SHIM AOTITorchError aoti_torch_scalar_to_tensor_##name(type value, AtenTensorHandle* ret_new_tensor) { \
    return scalar(value, ret_new_tensor, code, "aoti_torch_scalar_to_tensor_" #name);                             \
  }
TORCHABI_SCALAR(float32, float, dtype::kFloat32)
TORCHABI_SCALAR(float64, double, dtype::kFloat64)
TORCHABI_SCALAR(uint8, uint8_t, dtype::kUInt8)
TORCHABI_SCALAR(uint16, uint16_t, dtype::kUInt16)
TORCHABI_SCALAR(uint32, uint32_t, dtype::kUInt32)
TORCHABI_SCALAR(uint64, uint64_t, dtype::kUInt64)
TORCHABI_SCALAR(int8, int8_t, dtype::kInt8)
TORCHABI_SCALAR(int16, int16_t, dtype::kInt16)
TORCHABI_SCALAR(int32, int32_t, dtype::kInt32)
TORCHABI_SCALAR(int64, int64_t, dtype::kInt64)
TORCHABI_SCALAR(bool, bool, dtype::kBool)
TORCHABI_SCALAR(complex64, torchabi_complex_float, dtype::kComplex64)
TORCHABI_SCALAR(complex128, torchabi_complex_double, dtype::kComplex128)
#undef TORCHABI_SCALAR
