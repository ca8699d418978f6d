#include "analyzers/schema/lexer.h"

#include <array>

namespace torchabi::schema {

namespace {

// Words TorchScript's lexer turns into their own tokens; a schema cannot use
// them as argument, operator or type names.
constexpr std::array<std::string_view, 28> kReserved = {
    "True",  "False", "None",   "NoneType", "Ellipsis", "def",    "if",     "else",
    "elif",  "while", "return", "is",       "and",      "or",     "not",    "global",
    "for",   "in",    "raise",  "assert",   "break",    "continue", "del",  "pass",
    "class", "import", "with",  "as",
};

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Length of the longest prefix of `s` that strtod would consume, restricted
// to what TorchScript accepts as a number start (a digit or '.'), plus a
// trailing `j` for imaginary literals. 0 when there is no number.
size_t scan_number(std::string_view s) {
  size_t i = 0;
  auto digits = [&](bool hex) {
    size_t start = i;
    while (i < s.size() && (hex ? is_hex(s[i]) : is_digit(s[i]))) ++i;
    return i - start;
  };
  bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
             (is_hex(s[2]) || (s[2] == '.' && s.size() > 3 && is_hex(s[3])));
  if (hex) i = 2;
  size_t mantissa = digits(hex);
  if (i < s.size() && s[i] == '.') {
    size_t dot = i++;
    size_t frac = digits(hex);
    if (mantissa == 0 && frac == 0) i = dot;  // a lone '.' is punctuation
    mantissa += frac;
  }
  if (mantissa == 0) return 0;
  char exp_mark = hex ? 'p' : 'e';
  if (i < s.size() && (s[i] == exp_mark || s[i] == exp_mark - 32)) {
    size_t save = i++;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits(false) == 0) i = save;  // "1e" is the number 1 then 'e'
  }
  if (i < s.size() && s[i] == 'j') ++i;
  return i;
}

// Length of a quoted string starting at s[0]; throws on an unterminated one.
size_t scan_string(std::string_view s, uint32_t offset) {
  char quote = s[0];
  size_t quote_len = s.size() >= 3 && s[1] == quote && s[2] == quote ? 3 : 1;
  size_t i = quote_len;
  while (i < s.size()) {
    if (s.compare(i, quote_len, std::string(quote_len, quote)) == 0) return i + quote_len;
    if (s[i] == '\n' && quote_len == 1) break;
    if (s[i] == '\\') ++i;
    ++i;
  }
  throw LexError{"unterminated string literal", offset};
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> out;
  size_t i = 0;
  while (true) {
    while (i < text.size()) {
      if (is_space(text[i])) {
        ++i;
      } else if (text[i] == '#') {
        while (i < text.size() && text[i] != '\n') ++i;
      } else {
        break;
      }
    }
    auto off = static_cast<uint32_t>(i);
    if (i >= text.size()) {
      out.push_back({TokenKind::End, text.substr(i, 0), off});
      return out;
    }
    std::string_view rest = text.substr(i);
    char c = rest[0];
    TokenKind kind = TokenKind::Punct;
    size_t len = 1;
    if (size_t n = scan_number(rest); n > 0) {
      kind = TokenKind::Number;
      len = n;
    } else if (c == '\'' || c == '"') {
      kind = TokenKind::String;
      len = scan_string(rest, off);
    } else if (is_ident_start(c)) {
      while (len < rest.size() && (is_ident_start(rest[len]) || is_digit(rest[len]))) ++len;
      kind = TokenKind::Ident;
      for (std::string_view word : kReserved)
        if (rest.substr(0, len) == word) kind = TokenKind::Keyword;
    } else if (rest.substr(0, 2) == "->") {
      kind = TokenKind::Arrow;
      len = 2;
    } else if (rest.substr(0, 3) == "...") {
      kind = TokenKind::Dots;
      len = 3;
    } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      throw LexError{"unexpected byte in schema", off};
    }
    out.push_back({kind, rest.substr(0, len), off});
    i += len;
  }
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::End:
      return "end of schema";
    case TokenKind::Ident:
      return "identifier '" + std::string(t.text) + "'";
    case TokenKind::Keyword:
      return "reserved word '" + std::string(t.text) + "'";
    case TokenKind::Number:
      return "number " + std::string(t.text);
    case TokenKind::String:
      return "string " + std::string(t.text);
    default:
      return "'" + std::string(t.text) + "'";
  }
}

std::string decode_string_literal(std::string_view tok) {
  size_t q = tok.size() >= 6 && tok[1] == tok[0] && tok[2] == tok[0] ? 3 : 1;
  if (tok.size() < 2 * q) return {};
  std::string_view body = tok.substr(q, tok.size() - 2 * q);
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    char e = body[++i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case '\n': break;  // line continuation
      default: out += e; break;  // \\ \' \" and anything else: the character itself
    }
  }
  return out;
}

}  // namespace torchabi::schema
