// PyTorch's operator list, native_functions.yaml (torchgen ships it as
// torchgen/packaged/ATen/native/native_functions.yaml in every torch install
// with Python), as the rows of rules/schema/aten_ops.tsv: each operator's
// schema, and whether a composite kernel serves every backend or a device
// backend (PrivateUse1) must register its own. scripts/build-schema-rules.py
// writes the shipped file the same way; `rules import --torch` reads an
// install's own.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

struct AtenOpRow {
  std::string name;    // "add.Tensor"
  bool composite = false;
  std::string schema;  // the `func:` line
};

// Sorted by name. Throws InputError naming `path` when it is missing or not
// a native_functions.yaml (no `func:` entries).
std::vector<AtenOpRow> read_native_functions(const std::string& path);

// rules/schema/aten_ops.tsv: `release` ("2.14.1") and the source's file name
// go into its header comments.
std::string aten_ops_tsv(const std::vector<AtenOpRow>& rows, const std::string& release, const std::string& source_name);

}  // namespace torchabi::inputs
