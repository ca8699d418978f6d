// Evaluates a preprocessor #if/#elif condition the way the preprocessor
// would, for a chosen set of macro definitions, without running it.
//
// Only some macros have known values (the version macros of PyTorch's
// headers at a release); anything else — a project macro, USE_CUDA,
// __has_include(...), a function-like macro call — is unknown, and unknown
// values propagate (three-valued: `unknown && 0` is 0, `unknown || 1` is 1),
// so a result is only given when it does not depend on what is unknown.
// Understood: integer literals (suffixes, hex), true/false, defined X,
// defined(X), ! ~ unary - +, * / %, + -, << >>, < <= > >=, == !=, & ^ |,
// && ||, ?:, parentheses.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace torchabi::source {

struct PpMacros {
  // Whether NAME is defined; nullopt when that is unknown.
  std::function<std::optional<bool>(std::string_view name)> defined;
  // NAME's value where it is read in the condition (an undefined macro is 0);
  // nullopt when unknown.
  std::function<std::optional<uint64_t>(std::string_view name)> value;
};

// nullopt: the result depends on something unknown, or the text is no
// condition this evaluator reads.
std::optional<int64_t> evaluate_pp_condition(std::string_view condition, const PpMacros& macros);

// The macro to define to compile the branch a directive opens: X for
// `#ifdef X`, `#elifdef X`, `#if defined(X)`, `#elif defined X`; "" when the
// condition is anything more than that.
std::string enabling_macro(std::string_view directive);

}  // namespace torchabi::source
