#include "analyzers/schema/registrations/cpp_type_pattern.h"

namespace torchabi::schema {

namespace {

CppTypeTree parse_node(std::string_view s, size_t& pos) {
  auto skip = [&] {
    while (pos < s.size() && s[pos] == ' ') ++pos;
  };
  skip();
  CppTypeTree n;
  size_t start = pos;
  while (pos < s.size() && s[pos] != '<' && s[pos] != ',' && s[pos] != '>') ++pos;
  n.name = std::string(s.substr(start, pos - start));
  while (!n.name.empty() && n.name.back() == ' ') n.name.pop_back();
  if (pos < s.size() && s[pos] == '<') {
    n.templated = true;
    ++pos;
    while (pos < s.size() && s[pos] != '>') {
      n.args.push_back(parse_node(s, pos));
      skip();
      if (pos < s.size() && s[pos] == ',') ++pos;
      else break;
    }
    if (pos < s.size() && s[pos] == '>') ++pos;
    start = pos;
    while (pos < s.size() && s[pos] != ',' && s[pos] != '>') ++pos;
    n.suffix = std::string(s.substr(start, pos - start));
    while (!n.suffix.empty() && n.suffix.back() == ' ') n.suffix.pop_back();
  }
  return n;
}

}  // namespace

CppTypeTree parse_node(std::string_view s) {
  size_t pos = 0;
  return parse_node(s, pos);
}

std::string print(const CppTypeTree& n) {
  std::string out = n.name;
  if (n.templated) {
    out += "<";
    for (size_t i = 0; i < n.args.size(); ++i) out += (i ? ", " : "") + print(n.args[i]);
    out += ">";
  }
  return out + n.suffix;
}

// Matches `n` against a pattern with $T; `bound` receives what $T stands for.
bool unify(const CppTypeTree& pattern, const CppTypeTree& n, std::optional<CppTypeTree>& bound) {
  if (pattern.is_var()) {
    if (bound) return print(*bound) == print(n);
    bound = n;
    return true;
  }
  if (pattern.name != n.name || pattern.templated != n.templated || pattern.suffix != n.suffix ||
      pattern.args.size() != n.args.size())
    return false;
  for (size_t i = 0; i < n.args.size(); ++i)
    if (!unify(pattern.args[i], n.args[i], bound)) return false;
  return true;
}

CppTypeTree substitute(const CppTypeTree& pattern, const CppTypeTree& value) {
  if (pattern.is_var()) return value;
  CppTypeTree out = pattern;
  for (auto& a : out.args) a = substitute(a, value);
  return out;
}

}  // namespace torchabi::schema
