// Patterns over normalized C++ type spellings (source/cpp_type_name.h) with a
// "$T" hole: how the StableIValue conversions read from the headers
// ("std::optional<$T>", UnboxType's "c10::HeaderOnlyArrayRef<$T>" ->
// "std::vector<$T>") are matched against a kernel's C++ types.
#pragma once

#include <optional>
#include <string_view>

#include "analyzers/source/cpp_type_name.h"

namespace torchabi::schema {

using source::CppTypeTree;
using source::print;

inline CppTypeTree parse_node(std::string_view spelling) { return source::parse_cpp_type(spelling); }
// The pattern's hole.
inline bool is_type_var(const CppTypeTree& n) { return !n.templated && n.suffix.empty() && n.name == "$T"; }

// Matches `n` against a pattern with $T; `bound` receives what $T stands for.
bool unify(const CppTypeTree& pattern, const CppTypeTree& n, std::optional<CppTypeTree>& bound);
// The pattern with $T replaced by `value`.
CppTypeTree substitute(const CppTypeTree& pattern, const CppTypeTree& value);

}  // namespace torchabi::schema
