#include "analyzers/runtime/driver/schema_types.h"

#include <sstream>
#include <utility>
#include <vector>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::runtime_driver {
namespace {

using runtime::TypeKind;

constexpr const char* kFile = "runtime/schema_types.tsv";

// The table's names for the conversions the runtime's codec implements.
// `generator` is libtorch's (from 2.13) but the reference runtime creates no
// generators, so such ops are reported and not run.
bool kind_named(const std::string& name, TypeKind& out) {
  static const std::pair<const char*, TypeKind> kKinds[] = {
      {"tensor", TypeKind::Tensor},           {"int", TypeKind::Int},
      {"float", TypeKind::Float},             {"bool", TypeKind::Bool},
      {"string", TypeKind::String},           {"scalar_type", TypeKind::ScalarType},
      {"layout", TypeKind::Layout},           {"memory_format", TypeKind::MemoryFormat},
      {"device", TypeKind::Device},           {"generator", TypeKind::Unconvertible},
      {"-", TypeKind::Unconvertible},
  };
  for (const auto& [n, k] : kKinds)
    if (name == n) return out = k, true;
  return false;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cols;
  std::string col;
  std::istringstream in(line);
  while (std::getline(in, col, '\t')) cols.push_back(col);
  return cols;
}

}  // namespace

SchemaTypeTable SchemaTypeTable::load(const inputs::RulesSource& rules) {
  SchemaTypeTable table;
  std::istringstream in(rules.require(kFile));
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#' || line.rfind("spelling\t", 0) == 0) continue;
    const std::string at = rules.describe() + "/" + kFile + ":" + std::to_string(lineno);
    std::vector<std::string> cols = split_tabs(line);
    if (cols.size() != 3) throw InputError(at, "expected 3 tab-separated columns (spelling, torch_type, stable)");
    SchemaTypeFacts f;
    f.torch_type = cols[1];
    f.stable = cols[2];
    if (!kind_named(f.stable, f.kind)) throw InputError(at, "unknown conversion '" + f.stable + "'");
    if (!f.parsed() && f.stable != "-") throw InputError(at, "a type torch does not parse cannot have a conversion");
    table.facts_[cols[0]] = std::move(f);
  }
  return table;
}

const SchemaTypeTable& SchemaTypeTable::current() {
  static const SchemaTypeTable table = load(inputs::RulesSource::current());
  return table;
}

const SchemaTypeFacts* SchemaTypeTable::find(const std::string& spelling) const {
  auto it = facts_.find(spelling);
  return it == facts_.end() ? nullptr : &it->second;
}

}  // namespace torchabi::runtime_driver
