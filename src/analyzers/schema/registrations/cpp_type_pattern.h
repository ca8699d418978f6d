// Normalized C++ type spellings (cpp_type_name.h) as trees, and patterns
// over them with a "$T" hole: how the StableIValue conversions read from the
// headers ("std::optional<$T>", UnboxType's "c10::HeaderOnlyArrayRef<$T>" ->
// "std::vector<$T>") are matched against a kernel's C++ types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::schema {

// "std::optional<std::vector<int64_t>>" as {std::optional, [{std::vector, [{int64_t}]}]}.
struct CppTypeTree {
  std::string name;
  std::vector<CppTypeTree> args;
  bool templated = false;
  std::string suffix;  // "*", "&" ... after the arguments

  bool is_var() const { return !templated && suffix.empty() && name == "$T"; }
};

CppTypeTree parse_node(std::string_view normalized);
std::string print(const CppTypeTree& n);

// Matches `n` against a pattern with $T; `bound` receives what $T stands for.
bool unify(const CppTypeTree& pattern, const CppTypeTree& n, std::optional<CppTypeTree>& bound);
// The pattern with $T replaced by `value`.
CppTypeTree substitute(const CppTypeTree& pattern, const CppTypeTree& value);

}  // namespace torchabi::schema
