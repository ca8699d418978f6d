#include "analyzers/migration/aten_fallback.h"
#include "analyzers/migration/stable_ops/op_schema.h"
#include "common/text.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::migration {

namespace {

constexpr const char* kTypes = "runtime/schema_types.tsv";
constexpr const char* kOperators = "api/tensor_operators.tsv";

std::vector<std::vector<std::string>> rows(const std::string& tsv, const std::string& origin, size_t columns) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(tsv);
  size_t n = 0;
  bool header = true;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::istringstream cols(line);
    for (std::string c; std::getline(cols, c, '\t');) cells.push_back(c);
    if (cells.size() != columns)
      throw InputError(origin, "line " + std::to_string(n) + ": expected " + std::to_string(columns) + " columns");
    if (header) {  // the first row names the columns
      header = false;
      continue;
    }
    out.push_back(std::move(cells));
  }
  return out;
}

// "Tensor(a!) self" -> "Tensor"; "int[1] stride=1" -> "int"; "Tensor?[]" -> "Tensor".
std::string base_type(std::string_view item) {
  size_t end = 0;
  while (end < item.size() && (std::isalnum(static_cast<unsigned char>(item[end])) || item[end] == '_')) ++end;
  return std::string(item.substr(0, end));
}

}  // namespace

AtenFallback AtenFallback::load(const inputs::RulesSource& rules) {
  return parse(inputs::AtenOps::load(rules), rules.require(kTypes), rules.require(kOperators), "rules");
}

AtenFallback AtenFallback::parse(inputs::AtenOps ops, const std::string& types_tsv, const std::string& operators_tsv,
                                 const std::string& origin) {
  AtenFallback f;
  f.ops_ = std::move(ops);
  for (const auto& r : rows(types_tsv, origin + "/" + kTypes, 3))
    if (r[2] != "-") f.boxable_types_.insert(r[0]);
  for (const auto& r : rows(operators_tsv, origin + "/" + kOperators, 3)) {
    if (!f.ops_.find(r[2]))
      throw InputError(origin + "/" + kOperators, "'" + r[2] + "' is not an ATen operator of " + f.ops_.release());
    f.operators_[r[0]] = {r[1], r[2]};
  }
  return f;
}

std::string AtenFallback::named_function(std::string_view api) const {
  auto it = operators_.find(std::string(api));
  return it == operators_.end() ? std::string() : it->second.first;
}

bool AtenFallback::boxable(const std::string& schema) const {
  const size_t open = schema.find('(');
  const size_t arrow = schema.rfind("->");
  if (open == std::string::npos || arrow == std::string::npos) return false;
  const size_t close = schema.rfind(')', arrow);
  if (close == std::string::npos || close < open) return false;
  std::vector<std::string> types;
  for (const auto& a : stable_ops::schema_items(std::string_view(schema).substr(open + 1, close - open - 1)))
    if (a != "*") types.push_back(base_type(a));
  std::string rets(text::trim(std::string_view(schema).substr(arrow + 2)));
  if (rets.size() >= 2 && rets.front() == '(' && rets.back() == ')') rets = rets.substr(1, rets.size() - 2);
  for (const auto& r : stable_ops::schema_items(rets)) types.push_back(base_type(r));
  for (const auto& t : types)
    if (!boxable_types_.contains(t)) return false;
  return true;
}

std::vector<std::string> AtenFallback::op_candidates(std::string_view api) const {
  std::vector<std::string> candidates;
  if (auto it = operators_.find(std::string(api)); it != operators_.end()) {
    candidates.push_back(it->second.second);
  } else {
    std::string_view name = api;
    for (std::string_view p : {"at::Tensor::", "at::TensorBase::", "torch::Tensor::", "at::", "torch::"})
      if (name.starts_with(p)) {
        name.remove_prefix(p.size());
        break;
      }
    if (name.size() == api.size() || name.empty() || name.find("::") != std::string_view::npos ||
        !std::islower(static_cast<unsigned char>(name.front())))
      return {};
    // at::sum_out(out, x) is the sum.out overload; the default overload first otherwise.
    std::string op(name);
    const bool out = op.ends_with("_out") && ops_.overloads_of(op).empty();
    if (out) op.resize(op.size() - 4);
    for (const auto& o : ops_.overloads_of(op)) {
      const bool is_out = o.find(".out") != std::string::npos || o.ends_with("_out");
      if (is_out == out) candidates.push_back(o);
    }
    std::stable_partition(candidates.begin(), candidates.end(), [&](const std::string& o) { return o == op; });
  }
  return candidates;
}

std::optional<DispatcherCall> AtenFallback::dispatcher_call(std::string_view api) const {
  const std::vector<std::string> candidates = op_candidates(api);
  for (const auto& c : candidates) {
    const inputs::AtenOp* op = ops_.find(c);
    if (!op || !boxable(op->schema)) continue;
    const size_t dot = c.find('.');
    DispatcherCall call{"aten::" + c.substr(0, dot), dot == std::string::npos ? "" : c.substr(dot + 1), op->schema, {}};
    if (c != candidates.front()) call.instead_of = candidates.front();
    return call;
  }
  return std::nullopt;
}

std::string AtenFallback::workaround(const DispatcherCall& call) {
  return "No torch::stable wrapper: call " + call.op + " by name, torch_call_dispatcher(\"" + call.op + "\", \"" +
         call.overload + "\", stack, TORCH_ABI_VERSION) (2.10; aoti_torch_call_dispatcher(\"" + call.op + "\", \"" +
         call.overload + "\", stack) before), with the arguments of `" + call.schema +
         "` boxed as StableIValues in order; the results come back from slot 0." +
         (call.instead_of.empty() ? std::string()
                                  : " (Not " + call.instead_of +
                                        ": a type of its schema, such as Scalar, has no StableIValue.)");
}

}  // namespace torchabi::migration
