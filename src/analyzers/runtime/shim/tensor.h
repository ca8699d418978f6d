// The reference runtime's tensors: just enough of ATen's model (storage shared
// between views, sizes/strides/offset, dtype and device codes) to execute the
// ops a stable extension calls and to compare its outputs. Dtype, device and
// layout are kept as the shim's int32 codes so nothing is translated twice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace torchabi::runtime {

// c10::ScalarType codes (rules/runtime/shim_constants.tsv holds the same facts
// for the exported getters; these name the ones the runtime computes with).
namespace dtype {
inline constexpr int32_t kUInt8 = 0, kInt8 = 1, kInt16 = 2, kInt32 = 3, kInt64 = 4, kFloat16 = 5,
                         kFloat32 = 6, kFloat64 = 7, kComplex32 = 8, kComplex64 = 9, kComplex128 = 10,
                         kBool = 11, kBFloat16 = 15, kUInt16 = 27, kUInt32 = 28, kUInt64 = 29;
}
namespace device {
inline constexpr int32_t kCPU = 0, kCUDA = 1, kMeta = 14;
}
inline constexpr int32_t kLayoutStrided = 0;
inline constexpr int32_t kMemoryFormatContiguous = 0, kMemoryFormatPreserve = 1, kMemoryFormatChannelsLast = 2,
                         kMemoryFormatChannelsLast3d = 3;

enum class ElementKind { Bool, Signed, Unsigned, Float, Complex, Other };

struct DTypeInfo {
  int32_t code = -1;
  const char* name = "unknown";  // as torch prints it without "torch.": "float32"
  size_t size = 0;               // 0: not a dtype the runtime knows
  ElementKind kind = ElementKind::Other;
};

const DTypeInfo& dtype_info(int32_t code);
// "float32" -> code; also accepts "float", "int", "long", "double", "half".
bool dtype_from_name(const std::string& name, int32_t& code);
// True for dtypes whose elements the reference kernels read and write.
bool is_computable(int32_t code);
const char* device_name(int32_t device_type);  // "cpu", "cuda", ...

// Memory behind one or more tensors. Owned buffers are zero-initialised so a
// kernel reading uninitialised memory gets deterministic results.
struct Storage {
  std::byte* data = nullptr;
  size_t nbytes = 0;
  std::function<void(void*)> release;  // empty: not owned
  ~Storage();

  static std::shared_ptr<Storage> allocate(size_t nbytes);
  static std::shared_ptr<Storage> borrow(void* data, size_t nbytes, std::function<void(void*)> release);
};

struct TensorImpl {
  std::shared_ptr<Storage> storage;  // null for meta tensors and undefined tensors
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;        // in elements
  int32_t dtype = dtype::kFloat32;
  int32_t device_type = device::kCPU;
  int32_t device_index = -1;
  int32_t layout = kLayoutStrided;
  bool defined = true;
  bool requires_grad = false;

  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
  int64_t numel() const;
  size_t element_size() const { return dtype_info(dtype).size; }
  bool is_contiguous() const;
  // Pointer to element 0 (storage base + offset); null without storage or elements.
  std::byte* data() const;
  // Pointer to the element with the given linear (row-major) index.
  std::byte* element(int64_t linear_index) const;
  // "float32[2, 3]"
  std::string describe() const;
};

using Tensor = std::shared_ptr<TensorImpl>;

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes);
// A new zero-filled tensor (CPU: with storage; meta: without).
Tensor make_tensor(const std::vector<int64_t>& sizes, int32_t dtype, int32_t device_type = device::kCPU,
                   int32_t device_index = -1);
Tensor make_strided(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides, int32_t dtype,
                    int32_t device_type = device::kCPU, int32_t device_index = -1);
// A view sharing `base`'s storage.
Tensor make_view(const TensorImpl& base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset);
Tensor undefined_tensor();

// Element access by value; the value is converted from/to the dtype the way a
// C++ static_cast would (float to int truncates, bool is != 0).
double read_double(const TensorImpl& t, int64_t linear_index);
int64_t read_int(const TensorImpl& t, int64_t linear_index);
void write_double(const TensorImpl& t, int64_t linear_index, double v);
void write_int(const TensorImpl& t, int64_t linear_index, int64_t v);
bool is_integral_kind(int32_t dtype);  // bool and integer dtypes

uint16_t float_to_half(float f);
float half_to_float(uint16_t h);
uint16_t float_to_bfloat16(float f);
float bfloat16_to_float(uint16_t b);

}  // namespace torchabi::runtime
