// One spelling per C++ type, so a kernel's parameter types can be compared
// with the StableIValue conversions of the headers whatever platform or
// standard library produced them: libclang's canonical spelling minus
// cv-qualifiers, elaborations, inline namespaces (std::__1, std::__cxx11) and
// defaulted template arguments, with fixed-width names for the integer types
// int64_t is an alias of.
#pragma once

#include <string>
#include <string_view>

namespace torchabi::source {

// "const std::vector<long, std::allocator<long> >" -> "std::vector<int64_t>"
// "std::__cxx11::basic_string<char>"               -> "std::string"
// "unsigned long *"                                 -> "uint64_t*"
std::string normalize_cpp_type(std::string_view canonical);

}  // namespace torchabi::source
