// How real PyTorch reads each type name of the schema language and which
// StableIValue conversion libtorch applies to it (rules/runtime/schema_types.tsv,
// checked against real torch by scripts/against-torch/schema_types.py). The
// runtime converts exactly what libtorch converts: a type is never mapped by
// hand here, so `DeviceIndex` is an int because torch parses it as one.
#pragma once

#include <string>
#include <unordered_map>

#include "analyzers/runtime/shim/value.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::runtime_driver {

struct SchemaTypeFacts {
  std::string torch_type;  // "IntType", or "unparsed" when torch rejects the name
  std::string stable;      // "int", "tensor", ...; "-" without a conversion
  runtime::TypeKind kind = runtime::TypeKind::Unconvertible;

  bool parsed() const { return torch_type != "unparsed"; }
};

class SchemaTypeTable {
public:
  // Throws InputError naming the file and line of a malformed row.
  static SchemaTypeTable load(const inputs::RulesSource& rules);
  // The table of the current rules (RulesSource::current()), read once.
  static const SchemaTypeTable& current();

  // Null for a name the table does not list (the runtime then has no conversion).
  const SchemaTypeFacts* find(const std::string& spelling) const;

private:
  std::unordered_map<std::string, SchemaTypeFacts> facts_;
};

}  // namespace torchabi::runtime_driver
