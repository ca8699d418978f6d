// Op signatures for the runtime, built with torchabi's schema parser: the
// extension's own schemas (from its aoti_torch_library_def calls) and the
// reference ATen ops listed in rules/runtime/aten_ops.tsv.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analyzers/runtime/shim/op_table.h"
#include "analyzers/runtime/shim/value.h"
#include "analyzers/schema/ast.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::runtime_driver {

using runtime::OpSignature;

// `implied_ns` is the namespace of the library block the schema was defined
// in. On a parse error the string is the parser's message with its column.
std::variant<OpSignature, std::string> signature_from_schema(const std::string& text, const std::string& implied_ns);

OpSignature signature_from_ast(const schema::FunctionSchema& fs, const std::string& text);

// Throws InputError when a row of the rules file does not parse.
std::vector<OpSignature> load_aten_signatures(const inputs::RulesSource& rules);

// The schema of any ATen op (rules/schema/aten_ops.tsv), parsed when first
// asked for: the runtime's dispatcher needs it to take over the arguments of
// an op it does not implement, as libtorch would. Ops of other namespaces and
// rows that do not parse give nullopt.
runtime::SchemaLookup make_aten_schema_lookup(const inputs::RulesSource& rules);

}  // namespace torchabi::runtime_driver
