// The project's stable_ops.h: one typed C++ helper per ATen operator the
// extension calls that torch::stable has no function for. A helper is
// generated from the operator's schema (rules/schema/aten_ops.tsv) and calls
// it by name through the dispatcher, its arguments boxed as StableIValues in
// schema order and its results unboxed; an operator whose schema has a type
// no StableIValue carries (Scalar) has a hand-written composition instead
// (rules/api/stable_ops.yaml). Why one header of the project's own rather
// than edits at each call: the calls stay readable (`stable_ops::sigmoid(x)`),
// and the boxing is written once, where a later torch::stable wrapper can
// replace it (docs/migrate.md, "stable_ops.h").
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/migration/stable_ops/op_schema.h"
#include "common/version.h"
#include "inputs/aten_ops.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::migration::stable_ops {

inline constexpr std::string_view kHeaderName = "stable_ops.h";
inline constexpr std::string_view kNamespace = "stable_ops";
// "mul.Tensor" + kScalarSuffix: the overloads of an operator's helper that
// take a number on one side (rules/api/stable_ops.yaml, scalar_operands).
inline constexpr std::string_view kScalarSuffix = "+scalar";

struct Helper {
  std::string key;   // "mul.Tensor", "sigmoid", "scalar_like"
  std::string name;  // the C++ function: "mul"
  std::string text;  // its definition(s)
  TorchVersion since;
  std::vector<std::string> uses;  // keys of the helpers it calls
  std::string why;                // a composition's reason; empty for a boxed call
  size_t min_written = 0;         // how many arguments a call must write (the rest have defaults)
  size_t max_written = 0;
};

class Generator {
public:
  // Throws InputError naming the rules file when one is malformed.
  static Generator load(const inputs::RulesSource& rules);
  static Generator parse(inputs::AtenOps ops, std::string_view yaml, const std::string& origin);

  // The helper of one operator overload ("mul.Tensor"), composition, or
  // number-operand overloads ("mul.Tensor+scalar"); nullopt when its schema
  // has a type with no StableIValue conversion and no composition spells it.
  std::optional<Helper> helper(const std::string& key) const;

  // The whole header holding `keys` and the helpers they use, in a fixed
  // order (a helper after those it calls, otherwise by key). The same keys
  // give the same text.
  std::string header(const std::set<std::string>& keys) const;

  // Whether argument `position` of an overload's schema ("add.Tensor", 0 is
  // `self`) is a single Tensor: a number written there (`x.add(1)`) needs the
  // number-operand overloads.
  bool tensor_argument(const std::string& key, size_t position) const;

  // The keys of a header this generator wrote; nullopt when `text` is not
  // one (a file of the user's that happens to have the name).
  static std::optional<std::set<std::string>> keys_of(std::string_view text);

private:
  std::optional<Helper> boxed(const std::string& key) const;
  std::optional<Helper> through_tensor_overload(const std::string& key) const;
  std::optional<std::string> cpp_type(const SchemaType& t, TorchVersion& since) const;
  std::optional<std::string> cpp_default(const SchemaArgument& a) const;
  std::optional<std::vector<std::string>> parameters(const OpSchema& schema, bool scalar_as_double,
                                                      Helper& h) const;

  struct Conversion {
    std::string cpp;
    TorchVersion since;
  };
  inputs::AtenOps ops_;
  std::map<std::string, Conversion> conversions_;                 // schema type -> C++
  TorchVersion list_since_;
  std::map<std::pair<std::string, std::string>, std::string> named_defaults_;  // (type, value) -> C++
  std::map<std::string, Helper> compositions_;
  std::set<std::string> scalar_both_, scalar_right_;
};

}  // namespace torchabi::migration::stable_ops
