// Dtype categories, promotion and result types, as ATen computes them. The
// rules were read off real PyTorch (torch.promote_types over every pair the
// runtime computes with); scripts/test-against-torch.sh keeps checking them.
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

enum class Category { Bool, Integral, Floating, Other };

Category category(int32_t dt) {
  switch (dtype_info(dt).kind) {
    case ElementKind::Bool: return Category::Bool;
    case ElementKind::Signed:
    case ElementKind::Unsigned: return Category::Integral;
    case ElementKind::Float: return Category::Floating;
    default: return Category::Other;
  }
}

// The integer dtypes of the standard promotion lattice, narrowest first.
int integral_rank(int32_t dt) {
  switch (dt) {
    case dtype::kUInt8:
    case dtype::kInt8: return 0;
    case dtype::kInt16: return 1;
    case dtype::kInt32: return 2;
    default: return 3;
  }
}

int32_t promote_integral(int32_t a, int32_t b) {
  if ((a == dtype::kUInt8 && b == dtype::kInt8) || (a == dtype::kInt8 && b == dtype::kUInt8)) return dtype::kInt16;
  return integral_rank(a) >= integral_rank(b) ? a : b;
}

int32_t promote_floating(int32_t a, int32_t b) {
  auto lowp = [](int32_t d) { return d == dtype::kFloat16 || d == dtype::kBFloat16; };
  if (lowp(a) && lowp(b)) return dtype::kFloat32;  // float16 with bfloat16
  return dtype_info(a).size >= dtype_info(b).size ? a : b;
}

// Combines the result of a higher-priority group of operands with a lower one
// (ATen's combine_categories, for real dtypes).
int32_t combine(std::optional<int32_t> higher, std::optional<int32_t> lower) {
  if (!higher) return lower.value_or(dtype::kFloat32);
  if (!lower) return *higher;
  if (is_floating(*higher)) return *higher;
  if (*higher == dtype::kBool || is_floating(*lower)) return promote_types(*higher, *lower);
  return *higher;
}

}  // namespace

bool is_floating(int32_t dt) { return category(dt) == Category::Floating; }

bool is_barebones_unsigned(int32_t dt) {
  return dt == dtype::kUInt16 || dt == dtype::kUInt32 || dt == dtype::kUInt64;
}

const char* aten_type_name(int32_t dt) {
  switch (dt) {
    case dtype::kUInt8: return "Byte";
    case dtype::kInt8: return "Char";
    case dtype::kInt16: return "Short";
    case dtype::kInt32: return "Int";
    case dtype::kInt64: return "Long";
    case dtype::kFloat16: return "Half";
    case dtype::kFloat32: return "Float";
    case dtype::kFloat64: return "Double";
    case dtype::kBool: return "Bool";
    case dtype::kBFloat16: return "BFloat16";
    case dtype::kUInt16: return "UInt16";
    case dtype::kUInt32: return "UInt32";
    case dtype::kUInt64: return "UInt64";
    default: return dtype_info(dt).name;
  }
}

void require_cpu(const TensorImpl& t, const char* op) {
  if (t.device_type != device::kCPU && t.device_type != device::kMeta)
    throw std::invalid_argument(std::string(op) + ": expected CPU tensors");
  if (!is_computable(t.dtype))
    throw std::invalid_argument(std::string(op) + ": the reference runtime does not compute with " +
                                dtype_info(t.dtype).name);
}

void require_dtype(bool ok, const char* kernel, int32_t dt) {
  if (!ok) throw std::invalid_argument(std::string("\"") + kernel + "\" not implemented for '" + aten_type_name(dt) + "'");
}

int32_t promote_types(int32_t a, int32_t b) {
  if (a == b) return a;
  Category ca = category(a), cb = category(b);
  if (ca == Category::Other || cb == Category::Other)
    throw std::invalid_argument(std::string("the reference runtime does not promote ") + dtype_info(a).name + " and " +
                                dtype_info(b).name);
  if (is_barebones_unsigned(a) || is_barebones_unsigned(b)) {
    // Only a floating type absorbs uint16/32/64; every other mix is refused.
    if (ca == Category::Floating) return a;
    if (cb == Category::Floating) return b;
    throw std::invalid_argument(std::string("Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                                            "promote ") + aten_type_name(a) + " and " + aten_type_name(b));
  }
  if (ca != cb) {
    if (ca == Category::Floating) return a;
    if (cb == Category::Floating) return b;
    return ca == Category::Integral ? a : b;  // an integer with bool
  }
  return ca == Category::Floating ? promote_floating(a, b) : promote_integral(a, b);
}

int32_t result_type(const std::vector<const TensorImpl*>& operands) {
  std::optional<int32_t> dim_result, zero_result;
  for (const TensorImpl* t : operands) {
    auto& slot = t->dim() > 0 ? dim_result : zero_result;
    slot = slot ? promote_types(*slot, t->dtype) : t->dtype;
  }
  return combine(dim_result, zero_result);
}

}  // namespace torchabi::runtime::aten
