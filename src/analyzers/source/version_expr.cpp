#include "analyzers/source/version_expr.h"

#include <cctype>
#include <string>
#include <vector>

#include "common/version.h"

namespace torchabi::source {

namespace {

class VersionExprParser {
public:
  explicit VersionExprParser(std::string_view s) : s_(s) {}

  std::optional<uint64_t> parse() {
    auto v = parse_or();
    skip();
    if (!v || pos_ != s_.size()) return std::nullopt;
    return v;
  }

private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    // "|" must not eat the first half of "||"
    if (tok == "|" && s_.substr(pos_, 2) == "||") return false;
    pos_ += tok.size();
    return true;
  }
  std::string ident() {
    skip();
    size_t b = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }

  std::optional<uint64_t> parse_or() {
    auto v = parse_shift();
    while (v && eat("|")) {
      auto r = parse_shift();
      if (!r) return std::nullopt;
      *v |= *r;
    }
    return v;
  }
  std::optional<uint64_t> parse_shift() {
    auto v = parse_add();
    while (v && eat("<<")) {
      auto r = parse_add();
      if (!r || *r >= 64) return std::nullopt;
      *v <<= *r;
    }
    return v;
  }
  std::optional<uint64_t> parse_add() {
    auto v = parse_unary();
    while (v && eat("+")) {
      auto r = parse_unary();
      if (!r) return std::nullopt;
      *v += *r;
    }
    return v;
  }
  static bool is_type_word(const std::string& w) {
    return w == "uint64_t" || w == "int64_t" || w == "unsigned" || w == "long" || w == "int" ||
           w == "uint32_t" || w == "size_t" || w == "const";
  }
  std::optional<uint64_t> parse_unary() {
    skip();
    if (eat("(")) {
      // A cast: "(uint64_t)", "(unsigned long long)".
      size_t save = pos_;
      bool cast = true, any = false;
      for (;;) {
        skip();
        if (eat(")")) break;
        std::string w = ident();
        if (w.empty() || !is_type_word(w)) {
          cast = false;
          break;
        }
        any = true;
      }
      if (cast && any) return parse_unary();
      pos_ = save;
      auto v = parse_or();
      if (!v || !eat(")")) return std::nullopt;
      return v;
    }
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      size_t b = pos_;
      while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return TorchVersion::parse_integer(s_.substr(b, pos_ - b));
    }
    std::string w = ident();
    if (w.starts_with("TORCH_VERSION_")) {
      auto v = TorchVersion::parse_dotted(w);
      if (v) return v->encoded();
    }
    return std::nullopt;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<uint64_t> evaluate_version_expr(std::string_view text) { return VersionExprParser(text).parse(); }

// ---- #if conditions ------------------------------------------------------

namespace {

struct Tok {
  std::string_view text;
  size_t begin = 0, end = 0;  // offsets in the condition
};

std::vector<Tok> tokenize_version_condition(std::string_view s) {
  static constexpr std::string_view kPunct[] = {"&&", "||", "<<", ">>", "<=", ">=", "==", "!=", "(", ")", "!", "<",
                                                ">",  "+",  "-",  "*",  "/",  "%",  "|",  "&",  "^", "~", "?", ":", ","};
  std::vector<Tok> out;
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = s[i];
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    size_t b = i;
    if (std::isalnum(c) || c == '_') {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '.' ||
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
    out.push_back({s.substr(b, i - b), b, i});
  }
  return out;
}

bool is_comparison(std::string_view t) {
  return t == ">=" || t == ">" || t == "<" || t == "<=" || t == "==" || t == "!=";
}

std::string_view mirrored(std::string_view op) {
  if (op == ">=") return "<=";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == "<") return ">";
  return op;
}

// Recursive descent over ||, &&, ! and comparisons; operands of comparisons
// are handed to evaluate_version_expr as text.
class ConditionParser {
public:
  explicit ConditionParser(std::string_view s) : s_(s), toks_(tokenize_version_condition(s)) {}

  std::optional<FeatureCondition> parse() {
    auto c = parse_or();
    if (!c || i_ != toks_.size()) return std::nullopt;
    return c;
  }

private:
  static FeatureCondition unknown() { return {}; }
  static FeatureCondition constant(bool v) {
    FeatureCondition c;
    (v ? c.when_false : c.when_true) = VersionSet::none();
    return c;
  }

  bool at(std::string_view t) const { return i_ < toks_.size() && toks_[i_].text == t; }

  std::optional<FeatureCondition> parse_or() {
    auto l = parse_and();
    while (l && at("||")) {
      ++i_;
      auto r = parse_and();
      if (!r) return std::nullopt;
      l = FeatureCondition{l->when_true | r->when_true, l->when_false & r->when_false,
                           l->tests_feature_version || r->tests_feature_version};
    }
    return l;
  }
  std::optional<FeatureCondition> parse_and() {
    auto l = parse_unary();
    while (l && at("&&")) {
      ++i_;
      auto r = parse_unary();
      if (!r) return std::nullopt;
      l = FeatureCondition{l->when_true & r->when_true, l->when_false | r->when_false,
                           l->tests_feature_version || r->tests_feature_version};
    }
    return l;
  }
  std::optional<FeatureCondition> parse_unary() {
    if (at("!")) {
      ++i_;
      auto c = parse_unary();
      if (c) std::swap(c->when_true, c->when_false);
      return c;
    }
    return parse_primary();
  }

  // From i_, the end of this operand of && / || (exclusive) and the first
  // comparison operator at the same parenthesis depth, if any.
  std::pair<size_t, std::optional<size_t>> extent() const {
    int depth = 0;
    std::optional<size_t> cmp;
    size_t k = i_;
    for (; k < toks_.size(); ++k) {
      std::string_view t = toks_[k].text;
      if (t == "(") ++depth;
      else if (t == ")" && --depth < 0) break;
      else if (depth == 0 && (t == "&&" || t == "||" || t == "?" || t == ":")) break;
      else if (depth == 0 && !cmp && is_comparison(t)) cmp = k;
    }
    return {k, cmp};
  }

  std::string_view text_of(size_t b, size_t e) const {
    return b >= e ? std::string_view() : s_.substr(toks_[b].begin, toks_[e - 1].end - toks_[b].begin);
  }

  // TORCH_FEATURE_VERSION, possibly parenthesized.
  bool is_feature_version(size_t b, size_t e) const {
    while (e - b >= 3 && toks_[b].text == "(" && toks_[e - 1].text == ")") ++b, --e;
    return e - b == 1 && toks_[b].text == "TORCH_FEATURE_VERSION";
  }

  std::optional<FeatureCondition> parse_primary() {
    if (i_ >= toks_.size()) return std::nullopt;
    auto [end, cmp] = extent();
    if (end == i_) return std::nullopt;
    if (cmp) {
      const size_t b = i_;
      i_ = end;
      std::string_view op = toks_[*cmp].text;
      if (is_feature_version(b, *cmp)) return compare(op, text_of(*cmp + 1, end));
      if (is_feature_version(*cmp + 1, end)) return compare(mirrored(op), text_of(b, *cmp));
      return unknown();
    }
    if (toks_[i_].text == "(" && toks_[end - 1].text == ")") {
      ++i_;
      auto c = parse_or();
      if (!c || !at(")")) return std::nullopt;
      ++i_;
      if (i_ == end) return c;
      i_ = end;  // "(a) + (b)": not a parenthesized condition
      return unknown();
    }
    const size_t b = i_;
    i_ = end;
    if (end - b == 1)
      if (auto v = TorchVersion::parse_integer(toks_[b].text)) return constant(*v != 0);
    return unknown();  // defined(X), a macro, arithmetic
  }

  static FeatureCondition compare(std::string_view op, std::string_view operand) {
    auto v = evaluate_version_expr(operand);
    if (!v) return unknown();
    auto when = VersionSet::compare(op, *v);
    if (!when) return unknown();
    return FeatureCondition{*when, when->complement(), true};
  }

  std::string_view s_;
  std::vector<Tok> toks_;
  size_t i_ = 0;
};

}  // namespace

FeatureCondition evaluate_feature_condition(std::string_view condition) {
  return ConditionParser(condition).parse().value_or(FeatureCondition{});
}

}  // namespace torchabi::source
