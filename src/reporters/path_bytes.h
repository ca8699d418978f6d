// File names are bytes: a name may hold bytes that are not UTF-8 or a newline.
// Every reporter keeps such names lossless and one record per line
// (docs/json-format.md, "Paths that are not UTF-8"):
//   text    `ls -b` escapes: \n \t \\ and \ooo (octal) for other control bytes
//           and for bytes that are not UTF-8, so a record never spans lines;
//   JSON    the string field holds the name with U+FFFD for each invalid
//           byte, and a sibling "<field>_bytes" holds the exact bytes
//           percent-encoded (RFC 3986: every byte outside printable ASCII, and '%');
//   SARIF   artifactLocation.uri is the percent-encoded bytes (a URI reference).
// Names that are valid UTF-8 without control bytes are written unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace torchabi::reporters {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if there is none.
inline size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return uint8_t(s[k]); };
  const uint8_t c = b(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  uint32_t cp = 0;
  if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values beyond Unicode are not UTF-8.
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

// True when `s` is UTF-8 (control bytes allowed).
inline bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_sequence_length(s, i);
    if (!n) return false;
    i += n;
  }
  return true;
}

// True when `s` is UTF-8 and has no control bytes: written as is everywhere.
inline bool plain_name(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (uint8_t(s[i]) < 0x20 || s[i] == 0x7F) return false;
    const size_t n = utf8_sequence_length(s, i);
    if (!n) return false;
    i += n;
  }
  return true;
}

// Every byte outside printable ASCII, and '%', as %XX.
inline std::string percent_encode_bytes(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : s) {
    const uint8_t c = uint8_t(ch);
    if (c <= 0x20 || c >= 0x7F || c == '%') {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

// `ls -b`: one line whatever the name holds; valid UTF-8 text stays readable.
inline std::string escape_for_text(std::string_view s) {
  // Plain names keep their backslashes (Windows paths stay readable); in an
  // escaped name a backslash is doubled, so the escape reverses.
  if (plain_name(s)) return std::string(s);
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const uint8_t c = uint8_t(s[i]);
    const size_t n = (c < 0x20 || c == 0x7F) ? 0 : utf8_sequence_length(s, i);
    if (c == '\\') out += "\\\\", ++i;
    else if (c == '\n') out += "\\n", ++i;
    else if (c == '\t') out += "\\t", ++i;
    else if (n) out.append(s.substr(i, n)), i += n;
    else {
      out += '\\';
      out += char('0' + (c >> 6));
      out += char('0' + ((c >> 3) & 7));
      out += char('0' + (c & 7));
      ++i;
    }
  }
  return out;
}

// A message line: only control bytes are escaped (a name quoted inside it must
// not break the record), so messages keep their backslashes.
inline std::string one_line(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    if (ch == '\n') out += "\\n";
    else if (ch == '\r') out += "\\r";
    else out += ch;
  }
  return out;
}

}  // namespace torchabi::reporters
