// Evaluates the integer expressions PyTorch and its users write for ABI
// versions, without a preprocessor:
//   0x020a000000000000ULL
//   (((0ULL + 2) << 56) | ((0ULL + 10) << 48))
//   ((uint64_t)2 << 56 | (uint64_t)9 << 48)
//   TORCH_VERSION_2_10_0
// Casts are ignored; | << + and parentheses are supported.
//
// And the #if / #elif conditions of PyTorch's headers, as far as they depend
// on TORCH_FEATURE_VERSION (see feature_guards.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "analyzers/source/version_set.h"

namespace torchabi::source {

std::optional<uint64_t> evaluate_version_expr(std::string_view text);

// What a preprocessor condition says about TORCH_FEATURE_VERSION: the values
// for which it can be true and those for which it can be false. Comparisons
// of TORCH_FEATURE_VERSION with a version expression (>=, >, <, <=, ==, !=,
// either side), !, &&, ||, parentheses and integer literals are understood;
// anything else (defined(USE_CUDA), __cplusplus >= 201703L, a macro call)
// can go either way, so it leaves both sets whole — as does a condition that
// cannot be read at all. Because of that, the sets over-approximate: a line
// is never said to be absent for a version at which it might be compiled.
struct FeatureCondition {
  VersionSet when_true = VersionSet::all();
  VersionSet when_false = VersionSet::all();
  bool tests_feature_version = false;  // TORCH_FEATURE_VERSION was compared with a version
};

FeatureCondition evaluate_feature_condition(std::string_view condition);

}  // namespace torchabi::source
