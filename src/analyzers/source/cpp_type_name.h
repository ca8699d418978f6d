// One spelling per C++ type, so a kernel's parameter types can be compared
// with the StableIValue conversions of the headers whatever platform or
// standard library produced them: libclang's canonical spelling minus
// cv-qualifiers, elaborations, inline namespaces (std::__1, std::__cxx11) and
// defaulted template arguments, with fixed-width names for the integer types
// int64_t is an alias of.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace torchabi::source {

// A spelling as a tree: "std::optional<std::vector<int64_t>>" is
// {std::optional, [{std::vector, [{int64_t}]}]}. Schema checks match kernel
// types against patterns over these trees (schema/registrations/cpp_type_pattern.h).
struct CppTypeTree {
  std::string name;
  std::vector<CppTypeTree> args;
  bool templated = false;
  std::string suffix;  // "*", "**", "[3]", or a member after the arguments ("::type")
};

// Parses a spelling, cleaned as normalize_cpp_type cleans it (cv-qualifiers,
// elaborations, references and inline namespaces dropped, fixed-width integer
// names) but with its template arguments as written.
CppTypeTree parse_cpp_type(std::string_view spelling);
std::string print(const CppTypeTree& n);

// "const std::vector<long, std::allocator<long> >" -> "std::vector<int64_t>"
// "std::__cxx11::basic_string<char>"               -> "std::string"
// "unsigned long *"                                 -> "uint64_t*"
std::string normalize_cpp_type(std::string_view canonical);

}  // namespace torchabi::source
