#include "analyzers/binary/conda_requirement.h"
#include "common/text.h"

#include "common/input_error.h"
#include "inputs/rules_source.h"
#include "inputs/tsv_rows.h"

namespace torchabi::binary {

namespace {

using text::split;

TorchAllowance of_kind(TorchAllowance::Kind kind) {
  TorchAllowance a;
  a.kind = kind;
  return a;
}

bool tighter(const TorchAllowance& a, const TorchAllowance& b) {  // a bounds more than b
  if (a.kind != TorchAllowance::Kind::LowerBound) return false;
  if (b.kind != TorchAllowance::Kind::LowerBound) return true;
  return a.bound > b.bound || (a.bound == b.bound && !a.inclusive && b.inclusive);
}

// One alternative: constraints joined by ",".
TorchAllowance alternative_allowance(std::string_view alt) {
  TorchAllowance a;
  a.kind = TorchAllowance::Kind::NoLowerBound;
  for (std::string_view c : split(alt, ',')) {
    if (c.empty() || c == "*") continue;
    std::string_view op;
    for (std::string_view o : {">=", "<=", "==", "!=", "~=", ">", "<", "="})
      if (c.starts_with(o)) {
        op = o;
        break;
      }
    std::string_view v = c.substr(op.size());
    if (op == "<" || op == "<=" || op == "!=") continue;
    if (v.ends_with("*")) v.remove_suffix(1);  // "2.12.*", "2.12*": fuzzy
    if (v.ends_with(".")) v.remove_suffix(1);
    auto release = parse_release(v);
    if (!release) return of_kind(TorchAllowance::Kind::Unknown);
    TorchAllowance b;
    b.kind = TorchAllowance::Kind::LowerBound;
    b.bound = *release;
    b.inclusive = op != ">";
    if (tighter(b, a)) a = b;
  }
  return a;
}

}  // namespace

std::set<std::string> conda_torch_packages(const inputs::RulesSource& rules) {
  const std::string rel = "binary/conda_torch_packages.tsv";
  std::set<std::string> out;
  inputs::for_each_tsv_row(rules.require(rel), rules.describe() + "/" + rel, 1,
                           [&](const std::vector<std::string_view>& cols, size_t) { out.emplace(cols[0]); });
  if (out.empty()) throw InputError(rules.describe(), rel + " names no conda package of PyTorch");
  return out;
}

TorchAllowance conda_spec_allowance(const std::string& spec) {
  if (spec.empty() || spec == "*") return of_kind(TorchAllowance::Kind::NoLowerBound);
  TorchAllowance best;
  bool first = true;
  for (std::string_view alt : split(spec, '|')) {
    TorchAllowance a = alternative_allowance(alt);
    // Alternatives: the most permissive decides (NoLowerBound > lowest bound > Unknown).
    const auto rank = [](const TorchAllowance& x) {
      return x.kind == TorchAllowance::Kind::NoLowerBound ? 3 : x.kind == TorchAllowance::Kind::LowerBound ? 2 : 1;
    };
    if (first || rank(a) > rank(best) ||
        (rank(a) == 2 && rank(best) == 2 && tighter(best, a)))
      best = a;
    first = false;
  }
  return best;
}

TorchAllowance conda_torch_allowance(const inputs::CondaIndex& index, const std::set<std::string>& torch_names) {
  TorchAllowance best;
  best.origin = "depends";
  best.undeclared = "no depends on PyTorch's conda packages";
  bool found = false;
  for (const auto& d : index.depends) {
    if (!torch_names.count(d.name)) continue;
    TorchAllowance a = conda_spec_allowance(d.version);
    a.requirement = d.text;
    a.origin = best.origin;
    a.undeclared = best.undeclared;
    // All apply together: a bound beats none, a higher bound a lower one;
    // an unreadable spec decides only when nothing else bounds.
    if (!found || tighter(a, best) ||
        (best.kind == TorchAllowance::Kind::NoLowerBound && a.kind == TorchAllowance::Kind::Unknown))
      best = a;
    found = true;
  }
  return best;
}

}  // namespace torchabi::binary
