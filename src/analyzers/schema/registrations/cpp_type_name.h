// The registration checks compare C++ types in one spelling; the normaliser
// lives with the libclang front end (analyzers/source/cpp_type_name.h), which
// also uses it for the StableIValue conversions it reads from the headers.
#pragma once

#include "analyzers/source/cpp_type_name.h"

namespace torchabi::schema {

using source::normalize_cpp_type;

}  // namespace torchabi::schema
