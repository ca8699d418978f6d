// Turns what the parser says about one schema into findings that point into
// the user's file: the schema's position there plus the column inside it.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/schema/ast.h"
#include "analyzers/schema/parser.h"
#include "findings/finding.h"

namespace torchabi::schema {

// Where a schema's text starts in what the user gave us.
struct SchemaOrigin {
  findings::Location start;   // file, line and column of the first character
  bool exact_columns = true;  // false: the text was unescaped (C++ or YAML quoting)
  // When known, where each byte of the text was written (a C++ literal with
  // escapes or split over lines); overrides the arithmetic from `start`.
  std::vector<std::pair<uint32_t, uint32_t>> positions;
};

// Location of byte `offset` of `text`.
findings::Location locate(const SchemaOrigin& origin, std::string_view text, uint32_t offset);

// Parses `text`; appends schema-parse-error or schema-default-mismatch
// findings; returns the tree when it parsed.
std::optional<FunctionSchema> diagnose_schema(std::string_view text, const SchemaOrigin& origin,
                                              const ParseOptions& options,
                                              std::vector<findings::Finding>& out);

// The schema text and a caret under `offset`, as two notes that line up
// when printed with the same prefix.
std::vector<std::string> caret_notes(std::string_view text, uint32_t offset);

}  // namespace torchabi::schema
