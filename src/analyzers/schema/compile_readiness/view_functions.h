// rules/schema/view_functions.yaml: the calls whose result may share storage
// with their tensor argument (compile-undeclared-alias).
#pragma once

#include <set>
#include <string>

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::schema {

struct ViewFunctions {
  std::set<std::string> namespaces;  // where a free function counts ("torch::stable")
  std::set<std::string> names;       // "transpose", "view"

  // `via` as kernel_flow records it: "torch::stable::transpose" or "x.view".
  bool aliases(const std::string& via) const;

  // Throws InputError when the file is malformed.
  static ViewFunctions load(const inputs::RulesSource& rules);
};

}  // namespace torchabi::schema
