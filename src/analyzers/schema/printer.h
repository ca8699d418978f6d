// Prints schema trees back as schema text in the layout native_functions.yaml
// uses, so that parse(print(s)) == s for every tree the parser produces.
#pragma once

#include <string>

#include "analyzers/schema/ast.h"

namespace torchabi::schema {

std::string to_string(const AliasInfo& alias);
std::string to_string(const Type& type);
std::string to_string(const DefaultValue& value);
std::string to_string(const Argument& argument);
std::string to_string(const Return& ret);
std::string to_string(const FunctionSchema& schema);

}  // namespace torchabi::schema
