#include "analyzers/source/feature_guards.h"

#include <string>

#include "analyzers/source/version_expr.h"

namespace torchabi::source {

namespace {

struct Condition {
  std::optional<TorchVersion> then_min;  // "TORCH_FEATURE_VERSION >= X": the #if branch needs X
  std::optional<TorchVersion> else_min;  // "TORCH_FEATURE_VERSION < X": the #else branch needs X
};

Condition parse_condition(std::string_view cond) {
  Condition c;
  auto at = cond.find("TORCH_FEATURE_VERSION");
  if (at == std::string_view::npos) return c;
  std::string_view rest = cond.substr(at + 21);
  size_t i = 0;
  while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
  bool ge = rest.substr(i, 2) == ">=";
  bool lt = !ge && rest.substr(i, 1) == "<" && rest.substr(i, 2) != "<<" && rest.substr(i, 2) != "<=";
  if (!ge && !lt) return c;
  std::string_view expr = rest.substr(i + (ge ? 2 : 1));
  // The operand ends at a logical operator or the end of the condition.
  for (std::string_view stop : {"&&", "||", "//", "/*"}) {
    auto p = expr.find(stop);
    if (p != std::string_view::npos) expr = expr.substr(0, p);
  }
  while (!expr.empty() && (expr.back() == ' ' || expr.back() == '\t' || expr.back() == '\r')) expr.remove_suffix(1);
  // Unbalanced closing parentheses belong to the enclosing condition.
  int depth = 0;
  size_t end = expr.size();
  for (size_t k = 0; k < expr.size(); ++k) {
    if (expr[k] == '(') ++depth;
    if (expr[k] == ')' && --depth < 0) {
      end = k;
      break;
    }
  }
  auto v = evaluate_version_expr(expr.substr(0, end));
  if (!v) return c;
  TorchVersion version = TorchVersion::decode(*v);
  if (ge) c.then_min = version;
  else c.else_min = version;
  return c;
}

}  // namespace

FeatureGuards FeatureGuards::scan(std::string_view text) {
  struct Open {
    unsigned begin;
    Condition cond;
    bool in_else;
  };
  FeatureGuards g;
  std::vector<Open> stack;
  unsigned line_no = 0;
  size_t pos = 0;
  auto close_branch = [&](const Open& o, unsigned end_line) {
    auto min = o.in_else ? o.cond.else_min : o.cond.then_min;
    if (min) g.regions_.push_back({o.begin, end_line, *min});
  };
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    ++line_no;
    unsigned first_line = line_no;
    // Join continuation lines of a directive.
    while (!line.empty() && line.back() == '\\' && nl != std::string_view::npos) {
      line.pop_back();
      pos = nl + 1;
      nl = text.find('\n', pos);
      line += std::string(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
      ++line_no;
    }
    size_t k = line.find_first_not_of(" \t");
    if (k != std::string::npos && line[k] == '#') {
      size_t d = line.find_first_not_of(" \t", k + 1);
      std::string_view dir = d == std::string::npos ? std::string_view() : std::string_view(line).substr(d);
      if (dir.starts_with("if")) {  // #if, #ifdef, #ifndef
        stack.push_back({first_line, dir.starts_with("if ") || dir.starts_with("if(") ? parse_condition(dir) : Condition{}, false});
      } else if (dir.starts_with("elif") && !stack.empty()) {
        close_branch(stack.back(), first_line);
        stack.back() = {first_line, parse_condition(dir), false};
      } else if (dir.starts_with("else") && !stack.empty()) {
        close_branch(stack.back(), first_line);
        stack.back().begin = first_line;
        stack.back().in_else = true;
      } else if (dir.starts_with("endif") && !stack.empty()) {
        close_branch(stack.back(), first_line);
        stack.pop_back();
      }
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return g;
}

std::optional<TorchVersion> FeatureGuards::required_at(unsigned line) const {
  std::optional<TorchVersion> best;
  for (const auto& r : regions_)
    if (line >= r.begin && line <= r.end && (!best || r.min > *best)) best = r.min;
  return best;
}

}  // namespace torchabi::source
