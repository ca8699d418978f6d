#include "analyzers/runtime/driver/python_errors.h"

#include <algorithm>

#include "common/input_error.h"
#include "inputs/tsv_rows.h"

namespace torchabi::runtime_driver {

std::vector<PythonErrorRule> load_python_error_rules(const inputs::RulesSource& rules) {
  const std::string rel = "runtime/kernel_exceptions.tsv";
  const std::string file = rules.describe() + "/" + rel;
  std::vector<PythonErrorRule> out;
  inputs::for_each_tsv_row(rules.require(rel), file, 3, [&](const auto& cols, size_t) {
    out.push_back({std::string(cols[0]), std::string(cols[1]), std::string(cols[2])});
  });
  // Without a catch-all, some throw would have no answer.
  if (out.empty() || out.back().cxx_type != "...")
    throw InputError(file, "the last row must be the catch-all '...'");
  return out;
}

PythonError python_error_for(const runtime::ThrownType& thrown, const std::string& what,
                             const std::vector<PythonErrorRule>& rules) {
  const auto& as = thrown.catchable_as;
  for (const auto& r : rules) {
    if (r.cxx_type != "..." && std::find(as.begin(), as.end(), r.cxx_type) == as.end()) continue;
    if (r.message == "what()") return {r.python_type, what, true};
    return {r.python_type, r.message, false};
  }
  return {"RuntimeError", what, true};  // unreachable with a loaded table (it ends with "...")
}

}  // namespace torchabi::runtime_driver
