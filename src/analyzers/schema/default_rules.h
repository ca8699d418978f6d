// Which default values suit which argument types. Some mismatches make
// PyTorch reject the schema when the op is registered (a Tensor defaulting to
// 1, a list defaulting to None); others PyTorch accepts silently although the
// value cannot be what the author meant (`int x=None`, `bool x=1`). The first
// kind is a parse error, the second a warning.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/schema/ast.h"

namespace torchabi::schema {

// Int, Float or Complex, from a number token's spelling ("1", "1e-05", "2j").
DefaultValue::Kind number_kind(std::string_view number_text);

struct DefaultProblem {
  bool rejected_by_pytorch = false;  // registration fails
  std::string message;               // a phrase: "a 'Tensor' argument can only default to None"
};

// Nothing when `value` is a valid default for an argument of `type`.
std::optional<DefaultProblem> check_default(const Type& type, const DefaultValue& value);

// Defaults PyTorch accepts although they do not suit their argument's type.
struct QuestionableDefault {
  size_t argument = 0;  // index into FunctionSchema::arguments
  std::string message;
};
std::vector<QuestionableDefault> questionable_defaults(const FunctionSchema& schema);

}  // namespace torchabi::schema
