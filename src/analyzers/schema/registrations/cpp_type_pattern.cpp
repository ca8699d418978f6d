#include "analyzers/schema/registrations/cpp_type_pattern.h"

namespace torchabi::schema {

bool unify(const CppTypeTree& pattern, const CppTypeTree& n, std::optional<CppTypeTree>& bound) {
  if (is_type_var(pattern)) {
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
  if (is_type_var(pattern)) return value;
  CppTypeTree out = pattern;
  for (auto& a : out.args) a = substitute(a, value);
  return out;
}

}  // namespace torchabi::schema
