// Which default values suit which argument types. PyTorch decides this while
// parsing (a Tensor may only default to None, a Device to a string, a list to
// a list of numbers, ...); a mismatch makes registration fail at import time.
#pragma once

#include <string>
#include <string_view>

#include "analyzers/schema/ast.h"

namespace torchabi::schema {

// Int, Float or Complex, from a number token's spelling ("1", "1e-05", "2j").
DefaultValue::Kind number_kind(std::string_view number_text);

// Empty when `value` is a valid default for an argument of `type`; otherwise
// what is wrong, as a phrase ("a 'Tensor' can only default to None").
std::string check_default(const Type& type, const DefaultValue& value);

}  // namespace torchabi::schema
