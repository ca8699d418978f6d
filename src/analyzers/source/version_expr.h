// Evaluates the integer expressions PyTorch and its users write for ABI
// versions, without a preprocessor:
//   0x020a000000000000ULL
//   (((0ULL + 2) << 56) | ((0ULL + 10) << 48))
//   ((uint64_t)2 << 56 | (uint64_t)9 << 48)
//   TORCH_VERSION_2_10_0
// Casts are ignored; | << + and parentheses are supported.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace torchabi::source {

std::optional<uint64_t> evaluate_version_expr(std::string_view text);

}  // namespace torchabi::source
