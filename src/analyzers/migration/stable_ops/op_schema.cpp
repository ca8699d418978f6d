#include "analyzers/migration/stable_ops/op_schema.h"

#include <cctype>

#include "common/text.h"

namespace torchabi::migration::stable_ops {

std::vector<std::string> schema_items(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ',';
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      if (std::string item(text::trim(s.substr(from, i - from))); !item.empty()) out.push_back(item);
      from = i + 1;
    }
  }
  return out;
}

namespace {


bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Reads a type at the start of `s`; `used` gets the characters it took.
std::optional<SchemaType> read_type(std::string_view s, size_t& used) {
  SchemaType t;
  size_t i = 0;
  while (i < s.size() && word_char(s[i])) ++i;
  if (i == 0) return std::nullopt;
  t.base = std::string(s.substr(0, i));
  while (i < s.size()) {
    if (s[i] == '(') {  // alias annotation: (a), (a!), (a -> *)
      const size_t close = s.find(')', i);
      if (close == std::string_view::npos) return std::nullopt;
      if (s.substr(i, close - i).find('!') != std::string_view::npos) t.mutated = true;
      i = close + 1;
    } else if (s[i] == '[') {
      const size_t close = s.find(']', i);
      if (close == std::string_view::npos || t.list) return std::nullopt;
      t.list = true;
      t.list_size = std::string(s.substr(i + 1, close - i - 1));
      if (t.optional) {  // Tensor?[]: the elements are optional
        t.optional = false;
        t.element_optional = true;
      }
      i = close + 1;
    } else if (s[i] == '?') {
      t.optional = true;
      ++i;
    } else {
      break;
    }
  }
  used = i;
  return t;
}

}  // namespace

std::optional<OpSchema> parse_op_schema(const std::string& schema) {
  const size_t open = schema.find('(');
  const size_t arrow = schema.rfind("->");
  if (open == std::string::npos || arrow == std::string::npos || arrow < open) return std::nullopt;
  const size_t close = schema.rfind(')', arrow);
  if (close == std::string::npos || close < open) return std::nullopt;
  OpSchema out;
  const std::string full = std::string(text::trim(std::string_view(schema).substr(0, open)));
  const size_t dot = full.find('.');
  out.name = full.substr(0, dot);
  if (dot != std::string::npos) out.overload = full.substr(dot + 1);
  if (out.name.empty()) return std::nullopt;
  bool keyword_only = false;
  for (const auto& item : schema_items(std::string_view(schema).substr(open + 1, close - open - 1))) {
    if (item == "*") {
      keyword_only = true;
      continue;
    }
    size_t used = 0;
    auto type = read_type(item, used);
    if (!type) return std::nullopt;
    std::string_view rest = text::trim(std::string_view(item).substr(used));
    SchemaArgument a;
    a.type = *type;
    a.keyword_only = keyword_only;
    const size_t eq = rest.find('=');
    a.name = std::string(text::trim(rest.substr(0, eq)));
    if (eq != std::string_view::npos) a.default_value = std::string(text::trim(rest.substr(eq + 1)));
    if (a.name.empty()) return std::nullopt;
    out.arguments.push_back(std::move(a));
  }
  std::string_view rets = text::trim(std::string_view(schema).substr(arrow + 2));
  if (rets.size() >= 2 && rets.front() == '(' && rets.back() == ')') rets = rets.substr(1, rets.size() - 2);
  for (const auto& r : schema_items(rets)) {
    size_t used = 0;
    auto type = read_type(r, used);
    if (!type) return std::nullopt;
    out.returns.push_back(*type);
  }
  return out;
}

}  // namespace torchabi::migration::stable_ops
