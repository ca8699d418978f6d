// An ATen operator's schema read into what a C++ helper needs: each
// argument's type (base name, list, optional), name and default, and the
// returns. Only the part of the schema language native_functions.yaml uses
// for operators (alias annotations are read and dropped: a helper passes
// handles, aliasing is the operator's business).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::migration::stable_ops {

// The comma-separated items of `s` at bracket depth 0 (a schema's arguments
// or returns), trimmed; the one splitter of schema text in migration.
std::vector<std::string> schema_items(std::string_view s);

struct SchemaType {
  std::string base;           // "Tensor", "int", "ScalarType"
  bool list = false;          // Tensor[], int[2]
  std::string list_size;      // "2" in int[2]; a scalar default of such a list repeats
  bool element_optional = false;  // Tensor?[]
  bool optional = false;      // int?, int[]?
  bool mutated = false;       // Tensor(a!)
};

struct SchemaArgument {
  SchemaType type;
  std::string name;
  std::optional<std::string> default_value;  // as written: "None", "False", "[0,1]", "1e-05"
  bool keyword_only = false;
};

struct OpSchema {
  std::string name;      // "chunk"
  std::string overload;  // "" for the default overload
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaType> returns;
};

// nullopt when the text is not an operator schema this reader understands.
std::optional<OpSchema> parse_op_schema(const std::string& schema);

}  // namespace torchabi::migration::stable_ops
