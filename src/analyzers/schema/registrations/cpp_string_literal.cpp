#include "analyzers/schema/registrations/cpp_string_literal.h"

#include <cctype>

namespace torchabi::schema {

namespace {

bool skip_space_and_comments(std::string_view s, size_t& i) {
  while (i < s.size()) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (s.substr(i, 2) == "//") {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.substr(i, 2) == "/*") {
      size_t end = s.find("*/", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 2;
    } else {
      break;
    }
  }
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One "..." piece starting at the quote s[i]; appends to out.
bool ordinary(std::string_view s, size_t& i, DecodedLiteral& out) {
  ++i;
  while (i < s.size() && s[i] != '"') {
    uint32_t at = static_cast<uint32_t>(i);
    char c = s[i];
    if (c == '\n') return false;
    if (c != '\\') {
      out.value += c;
      out.source_offsets.push_back(at);
      ++i;
      continue;
    }
    if (++i >= s.size()) return false;
    char e = s[i++];
    auto put = [&](char v) {
      out.value += v;
      out.source_offsets.push_back(at);
    };
    switch (e) {
      case 'n': put('\n'); break;
      case 't': put('\t'); break;
      case 'r': put('\r'); break;
      case 'a': put('\a'); break;
      case 'b': put('\b'); break;
      case 'f': put('\f'); break;
      case 'v': put('\v'); break;
      case '\n': break;  // line continuation
      case 'x': {
        int v = 0, n = 0;
        while (i < s.size() && hex_value(s[i]) >= 0) v = v * 16 + hex_value(s[i++]), ++n;
        if (n == 0) return false;
        put(static_cast<char>(v));
        break;
      }
      case 'u':
      case 'U':
        return false;  // universal names do not occur in schemas; give up on positions
      default:
        if (e >= '0' && e <= '7') {
          int v = e - '0', n = 1;
          while (n < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7') v = v * 8 + (s[i++] - '0'), ++n;
          put(static_cast<char>(v));
        } else {
          put(e);  // \\ \" \' \?
        }
    }
  }
  if (i >= s.size()) return false;
  ++i;  // closing quote
  return true;
}

// R"delim( ... )delim" starting at the quote s[i].
bool raw(std::string_view s, size_t& i, DecodedLiteral& out) {
  size_t open = s.find('(', i + 1);
  if (open == std::string_view::npos) return false;
  std::string close = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
  size_t end = s.find(close, open + 1);
  if (end == std::string_view::npos) return false;
  for (size_t k = open + 1; k < end; ++k) {
    out.value += s[k];
    out.source_offsets.push_back(static_cast<uint32_t>(k));
  }
  i = end + close.size();
  return true;
}

}  // namespace

std::optional<DecodedLiteral> decode_cpp_string_literal(std::string_view s) {
  DecodedLiteral out;
  size_t i = 0;
  bool any = false;
  while (true) {
    if (!skip_space_and_comments(s, i)) return std::nullopt;
    if (i >= s.size()) break;
    bool is_raw = false;
    for (std::string_view prefix : {"u8R", "uR", "UR", "LR", "R", "u8", "u", "U", "L"}) {
      if (s.substr(i, prefix.size()) == prefix && i + prefix.size() < s.size() && s[i + prefix.size()] == '"') {
        is_raw = prefix.back() == 'R';
        i += prefix.size();
        break;
      }
    }
    if (i >= s.size() || s[i] != '"') return std::nullopt;
    if (!(is_raw ? raw(s, i, out) : ordinary(s, i, out))) return std::nullopt;
    any = true;
  }
  if (!any) return std::nullopt;
  return out;
}

}  // namespace torchabi::schema
