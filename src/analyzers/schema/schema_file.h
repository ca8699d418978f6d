// Files of schemas a user can hand to `torchabi schema --file`: PyTorch's
// native_functions.yaml (a list of entries with `func:` and `dispatch:`), or
// plain text with one schema per line. The backend checks read the same
// entries to know which ops a device backend has to implement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace torchabi::schema {

struct SchemaEntry {
  std::string text;          // the schema
  uint32_t line = 0;         // 1-based line of the schema's first character
  uint32_t column = 0;       // 1-based column of the schema's first character
  bool exact_columns = true; // false when quoting/escapes make columns inexact
  // native_functions.yaml only: the keys of `dispatch:` ("CPU", "CUDA",
  // "CompositeExplicitAutograd", ...), and whether kernels come from a
  // structured_delegate (the out= variant) instead.
  std::vector<std::string> dispatch_keys;
  bool has_dispatch = false;
  bool structured_delegate = false;
};

// True when `path` is read as native_functions.yaml-style YAML (.yaml/.yml).
bool is_yaml_schema_file(const std::string& path);

// Reads `path`: YAML when it ends in .yaml/.yml, else text. Throws InputError
// naming the file when it cannot be read or is not in either format.
std::vector<SchemaEntry> read_schema_file(const std::string& path);

// Entries of native_functions.yaml-formatted text (`origin` names it in errors).
std::vector<SchemaEntry> parse_native_functions(const std::string& yaml_text, const std::string& origin);

}  // namespace torchabi::schema
