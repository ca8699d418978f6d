// Reads operator schemas the way PyTorch does when an op is registered
// (m.def, TORCH_LIBRARY, native_functions.yaml), so that a schema PyTorch
// would reject at load time is reported before the extension ever runs.
// Besides the grammar it checks what PyTorch checks while parsing: defaults
// must suit their type, `...` must come last, overload names cannot be
// `default` or start with `__`, and type variables are limited to aten/prim.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "analyzers/schema/ast.h"

namespace torchabi::schema {

struct ParseError {
  std::string message;  // one sentence, no position
  uint32_t offset = 0;  // byte offset into the schema text
  uint32_t line = 1;    // 1-based
  uint32_t column = 1;  // 1-based, in bytes

  // "column 12: unknown type 'Tensr' (did you mean 'Tensor'?)"; the line is
  // named too when the schema spans several.
  std::string display() const;
};

enum class TypeVariables {
  Never,            // every lower-case unknown type name is an error
  AtenAndPrimOnly,  // PyTorch's rule: only aten:: and prim:: ops may use them
  Always,
};

struct ParseOptions {
  // Namespace the schema will be registered in when it names none itself
  // (the `ns` of TORCH_LIBRARY(ns, m)); used for the type-variable rule.
  std::string implied_namespace;
  TypeVariables type_variables = TypeVariables::AtenAndPrimOnly;
};

template <class T>
using Parsed = std::variant<T, ParseError>;

// Where the parts of a parsed schema start (byte offsets into its text), for
// diagnostics about a schema that did parse.
struct SchemaSpans {
  std::vector<uint32_t> arguments;  // each argument's type
  std::vector<uint32_t> defaults;   // each argument's default value; 0 when it has none
  std::vector<uint32_t> returns;    // each return's type
};

// 1-based line and column of a byte offset, as ParseError reports them.
std::pair<uint32_t, uint32_t> line_and_column(std::string_view text, uint32_t offset);

// A full schema: name, arguments, `->`, returns.
Parsed<FunctionSchema> parse_schema(std::string_view text, const ParseOptions& options = {},
                                    SchemaSpans* spans = nullptr);

// An operator name alone: "ns::name.overload", "name", "name.overload" (as
// m.impl takes it).
Parsed<OperatorName> parse_operator_name(std::string_view text);

// Either of the two, as m.def accepts both ("name" with a function whose
// signature supplies the schema, or a full schema).
Parsed<std::variant<OperatorName, FunctionSchema>> parse_schema_or_name(
    std::string_view text, const ParseOptions& options = {});

}  // namespace torchabi::schema
