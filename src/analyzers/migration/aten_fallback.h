// What a maintainer can do with an ATen operator the stable API does not wrap:
// call it by name through the dispatcher, with its arguments boxed as
// StableIValues. That only works when every type of the operator's schema has
// a StableIValue conversion, so the answer is per operator, from the real
// schemas (rules/schema/aten_ops.tsv, native_functions.yaml) and the
// conversions real libtorch applies (rules/runtime/schema_types.tsv).
// Also maps Tensor's C++ operators (a - b) to the named functions they call
// (rules/api/tensor_operators.tsv), so they are looked up like calls.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "inputs/aten_ops.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::migration {

struct DispatcherCall {
  std::string op;        // "aten::flip"
  std::string overload;  // "" for the default overload
  std::string schema;    // "flip(Tensor self, int[] dims) -> Tensor"
  std::string instead_of;  // the preferred overload, when its types cannot be boxed ("linspace")
};

class AtenFallback {
public:
  // Throws InputError naming the rules file when one is malformed.
  static AtenFallback load(const inputs::RulesSource& rules);
  static AtenFallback parse(inputs::AtenOps ops, const std::string& types_tsv, const std::string& operators_tsv,
                            const std::string& origin);

  // "at::Tensor::operator-" -> "at::neg"; empty when `api` is not a Tensor operator.
  std::string named_function(std::string_view api) const;
  // The operator overload `api` (at::flip, torch::linspace, at::Tensor::unfold,
  // at::operator*) can be called by name with; nullopt when it names no ATen
  // operator or every overload has a type the dispatcher stack cannot carry.
  std::optional<DispatcherCall> dispatcher_call(std::string_view api) const;
  // The operator overloads ("add.Tensor", "sigmoid") `api` may call, the
  // preferred first, whether or not their types can be boxed.
  std::vector<std::string> op_candidates(std::string_view api) const;
  // The workaround sentence for one use.
  static std::string workaround(const DispatcherCall& call);

private:
  bool boxable(const std::string& schema) const;

  inputs::AtenOps ops_;
  std::set<std::string> boxable_types_;                              // schema type names with a conversion
  std::map<std::string, std::pair<std::string, std::string>> operators_;  // api -> (function, op.overload)
};

}  // namespace torchabi::migration
