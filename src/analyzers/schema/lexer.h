// Tokens of the schema language. The rules follow TorchScript's lexer, which
// is what PyTorch uses to read schemas at registration time: identifiers,
// numbers as strtod reads them (with an optional `j`), quoted strings, `->`,
// `...`, single punctuation characters, and reserved words that may not be
// used as names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::schema {

enum class TokenKind {
  Ident,     // [A-Za-z_][A-Za-z0-9_]*, not a reserved word
  Keyword,   // True, False, None, NoneType, and the other reserved words
  Number,    // 1, -, 1.5, 1e-05, 0x10, 2j (never signed)
  String,    // '...', "...", '''...''', """..."""
  Arrow,     // ->
  Dots,      // ...
  Punct,     // one of ( ) [ ] , ? ! * = : . | - and anything else printable
  End,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  uint32_t offset = 0;  // byte offset of the first character

  bool is(TokenKind k, std::string_view t) const { return kind == k && text == t; }
  bool punct(char c) const { return kind == TokenKind::Punct && text.size() == 1 && text[0] == c; }
};

// Thrown for text no token can start with (an unterminated string, a stray
// byte); the parser turns it into a ParseError at `offset`.
struct LexError {
  std::string message;
  uint32_t offset = 0;
};

// Splits `text` into tokens, ending with one End token. Whitespace (newlines
// included) and `#` comments separate tokens and are dropped.
std::vector<Token> tokenize(std::string_view text);

// How a token is named in "expected X but found Y" messages.
std::string describe(const Token& t);

// Decodes a String token's value (quotes removed, escapes applied).
std::string decode_string_literal(std::string_view token_text);

}  // namespace torchabi::schema
