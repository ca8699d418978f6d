#include "analyzers/source/version_expr.h"

#include <cctype>
#include <string>

#include "common/version.h"

namespace torchabi::source {

namespace {

class Parser {
public:
  explicit Parser(std::string_view s) : s_(s) {}

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

std::optional<uint64_t> evaluate_version_expr(std::string_view text) { return Parser(text).parse(); }

}  // namespace torchabi::source
