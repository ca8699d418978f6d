#include "analyzers/source/pp_condition.h"
#include "common/text.h"

#include <cctype>
#include <string>
#include <vector>

#include "common/version.h"

namespace torchabi::source {

namespace {

using Val = std::optional<int64_t>;  // nullopt: unknown

std::vector<std::string_view> tokenize(std::string_view s) {
  static constexpr std::string_view kPunct[] = {"&&", "||", "<<", ">>", "<=", ">=", "==", "!=", "(", ")", "!", "<",
                                                ">",  "+",  "-",  "*",  "/",  "%",  "|",  "&",  "^", "~", "?", ":", ","};
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = s[i];
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    const size_t b = i;
    if (std::isalnum(c) || c == '_') {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' ||
                              (s[i] == '\'' && std::isdigit(c))))
        ++i;
    } else if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c; ++i)
        if (s[i] == '\\') ++i;
      i = std::min(i + 1, s.size());
    } else {
      size_t len = 1;
      for (auto p : kPunct)
        if (s.substr(i, p.size()) == p) {
          len = p.size();
          break;
        }
      i += len;
    }
    out.push_back(s.substr(b, i - b));
  }
  return out;
}

bool is_identifier(std::string_view t) {
  return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_');
}

class Evaluator {
public:
  Evaluator(std::string_view s, const PpMacros& m) : toks_(tokenize(s)), m_(m) {}

  std::optional<int64_t> run() {
    Val v = ternary();
    if (failed_ || i_ != toks_.size()) return std::nullopt;
    return v;
  }

private:
  bool at(std::string_view t) const { return i_ < toks_.size() && toks_[i_] == t; }
  bool eat(std::string_view t) {
    if (!at(t)) return false;
    ++i_;
    return true;
  }

  Val ternary() {
    Val c = binary(0);
    if (!eat("?")) return c;
    Val a = ternary();
    if (!eat(":")) failed_ = true;
    Val b = ternary();
    if (!c) return a && b && *a == *b ? a : std::nullopt;
    return *c ? a : b;
  }

  // Binary operators by precedence, lowest first.
  static int level_of(std::string_view op) {
    static const std::vector<std::vector<std::string_view>> kLevels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"},
        {"*", "/", "%"}};
    for (size_t l = 0; l < kLevels.size(); ++l)
      for (auto o : kLevels[l])
        if (o == op) return static_cast<int>(l);
    return -1;
  }

  Val binary(int level) {
    if (level > 9) return unary();
    Val l = binary(level + 1);
    while (i_ < toks_.size() && level_of(toks_[i_]) == level) {
      const std::string_view op = toks_[i_++];
      Val r = binary(level + 1);
      l = apply(op, l, r);
    }
    return l;
  }

  static Val apply(std::string_view op, Val l, Val r) {
    // Short-circuit operators decide with one known side.
    if (op == "||") {
      if ((l && *l) || (r && *r)) return 1;
      if (l && r) return 0;
      return std::nullopt;
    }
    if (op == "&&") {
      if ((l && !*l) || (r && !*r)) return 0;
      if (l && r) return 1;
      return std::nullopt;
    }
    if (!l || !r) return std::nullopt;
    const int64_t a = *l, b = *r;
    const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    if (op == "|") return static_cast<int64_t>(ua | ub);
    if (op == "^") return static_cast<int64_t>(ua ^ ub);
    if (op == "&") return static_cast<int64_t>(ua & ub);
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    if (op == ">=") return a >= b;
    if (op == "<<") return ub >= 64 ? Val() : Val(static_cast<int64_t>(ua << ub));
    if (op == ">>") return ub >= 64 ? Val() : Val(static_cast<int64_t>(ua >> ub));
    if (op == "+") return static_cast<int64_t>(ua + ub);
    if (op == "-") return static_cast<int64_t>(ua - ub);
    if (op == "*") return static_cast<int64_t>(ua * ub);
    if (b == 0) return std::nullopt;
    if (op == "/") return a / b;
    return a % b;
  }

  Val unary() {
    if (eat("!")) {
      Val v = unary();
      return v ? Val(!*v) : v;
    }
    if (eat("~")) {
      Val v = unary();
      return v ? Val(~*v) : v;
    }
    if (eat("-")) {
      Val v = unary();
      return v ? Val(static_cast<int64_t>(0 - static_cast<uint64_t>(*v))) : v;
    }
    if (eat("+")) return unary();
    return primary();
  }

  // Skips a balanced (...) group starting at the current token.
  void skip_group() {
    int depth = 0;
    do {
      if (i_ >= toks_.size()) {
        failed_ = true;
        return;
      }
      if (toks_[i_] == "(") ++depth;
      else if (toks_[i_] == ")") --depth;
      ++i_;
    } while (depth > 0);
  }

  Val primary() {
    if (i_ >= toks_.size()) {
      failed_ = true;
      return std::nullopt;
    }
    if (eat("(")) {
      Val v = ternary();
      if (!eat(")")) failed_ = true;
      return v;
    }
    const std::string_view t = toks_[i_++];
    if (std::isdigit(static_cast<unsigned char>(t[0]))) {
      std::string digits;
      for (char c : t)
        if (c != '\'') digits += c;
      auto v = TorchVersion::parse_integer(digits);
      if (!v) failed_ = true;
      return v ? Val(static_cast<int64_t>(*v)) : Val();
    }
    if (!is_identifier(t)) {
      failed_ = true;
      return std::nullopt;
    }
    if (t == "defined") {
      const bool paren = eat("(");
      if (i_ >= toks_.size() || !is_identifier(toks_[i_])) {
        failed_ = true;
        return std::nullopt;
      }
      auto d = m_.defined(toks_[i_++]);
      if (paren && !eat(")")) failed_ = true;
      return d ? Val(*d) : Val();
    }
    if (t == "true") return 1;
    if (t == "false") return 0;
    if (at("(")) {  // a function-like macro or __has_include(...): unknown
      skip_group();
      return std::nullopt;
    }
    auto v = m_.value(t);
    return v ? Val(static_cast<int64_t>(*v)) : Val();
  }

  std::vector<std::string_view> toks_;
  const PpMacros& m_;
  size_t i_ = 0;
  bool failed_ = false;
};

}  // namespace

std::optional<int64_t> evaluate_pp_condition(std::string_view condition, const PpMacros& macros) {
  return Evaluator(condition, macros).run();
}

std::string enabling_macro(std::string_view directive) {
  auto ident_at = [&](size_t p) {
    size_t e = p;
    while (e < directive.size() && text::is_identifier_char(directive[e])) ++e;
    return std::string(directive.substr(p, e - p));
  };
  if (directive.starts_with("#ifdef ")) return ident_at(7);
  if (directive.starts_with("#elifdef ")) return ident_at(9);
  for (std::string_view prefix : {"#if defined(", "#elif defined(", "#if defined ", "#elif defined "}) {
    if (!directive.starts_with(prefix)) continue;
    std::string name = ident_at(prefix.size());
    size_t after = prefix.size() + name.size();
    if (prefix.back() == '(') ++after;
    return after >= directive.size() || directive.find_first_not_of(' ', after) == std::string_view::npos ? name : "";
  }
  return {};
}

}  // namespace torchabi::source
