#include "analyzers/migration/registration_scan.h"

#include <cctype>

#include "common/regex.h"

namespace torchabi::migration {

std::string CodeBlock::label() const {
  std::string out = macro + "(" + ns;
  if (!dispatch_key.empty()) out += ", " + dispatch_key;
  return out + ")";
}

namespace {

// The text with comments and string/char literals blanked (newlines kept),
// so that line numbers and braces can be read off it.
std::string code_only(std::string_view text) {
  std::string out(text);
  size_t i = 0;
  const size_t n = out.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < n) {
    if (out[i] == '/' && i + 1 < n && out[i + 1] == '/') {
      size_t e = out.find('\n', i);
      if (e == std::string::npos) e = n;
      blank(i, e);
      i = e;
    } else if (out[i] == '/' && i + 1 < n && out[i + 1] == '*') {
      size_t e = out.find("*/", i + 2);
      e = e == std::string::npos ? n : e + 2;
      blank(i, e);
      i = e;
    } else if (out[i] == 'R' && i + 1 < n && out[i + 1] == '"') {
      // R"delim( ... )delim"
      const size_t open = out.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + out.substr(i + 2, open - i - 2) + "\"";
      size_t e = out.find(close, open);
      e = e == std::string::npos ? n : e + close.size();
      blank(i + 1, e);
      i = e;
    } else if (out[i] == '"' || (out[i] == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(out[i - 1]))))) {
      // A quote after a hex digit is a digit separator (1'000), not a literal.
      const char q = out[i];
      size_t e = i + 1;
      while (e < n && out[e] != q && out[e] != '\n') e += out[e] == '\\' ? 2 : 1;
      blank(i + 1, std::min(e, n));
      i = e + 1;
    } else {
      ++i;
    }
  }
  return out;
}

uint32_t line_at(const std::string& text, size_t offset, size_t& cursor, uint32_t& line) {
  for (; cursor < offset && cursor < text.size(); ++cursor)
    if (text[cursor] == '\n') ++line;
  return line;
}

}  // namespace

std::vector<CodeBlock> scan_code_blocks(std::string_view text) {
  const std::string code = code_only(text);
  static const Regex head(
      R"(\b(STABLE_)?(TORCH_LIBRARY_IMPL|TORCH_LIBRARY_FRAGMENT|TORCH_LIBRARY|PYBIND11_MODULE)\s*\(\s*(\w+)\s*,\s*(\w+)\s*(?:,\s*(\w+)\s*)?\))");
  std::vector<CodeBlock> out;
  size_t cursor = 0;
  uint32_t line = 1;
  for (const RegexMatch& m : head.search_all(code)) {
    const std::string base = m[2];
    const bool stable = m.matched(1);
    if (stable && base == "PYBIND11_MODULE") continue;
    // A #define of the macro itself is not a block.
    const size_t at = m.position();
    const size_t bol = code.rfind('\n', at);
    const std::string before = code.substr(bol == std::string::npos ? 0 : bol + 1, at - (bol == std::string::npos ? 0 : bol + 1));
    if (before.find('#') != std::string::npos) continue;
    CodeBlock b;
    b.stable = stable;
    b.macro = std::string(stable ? "STABLE_" : "") + base;
    b.kind = base == "TORCH_LIBRARY_IMPL"       ? CodeBlock::Kind::LibraryImpl
             : base == "TORCH_LIBRARY_FRAGMENT" ? CodeBlock::Kind::LibraryFragment
             : base == "TORCH_LIBRARY"          ? CodeBlock::Kind::LibraryDef
                                                : CodeBlock::Kind::PybindModule;
    b.ns = m[3];
    if (b.kind == CodeBlock::Kind::LibraryImpl) b.dispatch_key = m[4];
    b.begin_line = line_at(code, at, cursor, line);
    // The body: from the first '{' after the head to its matching '}'.
    size_t pos = at + m[0].size();
    const size_t open = code.find('{', pos);
    size_t end = code.size();
    if (open != std::string::npos) {
      int depth = 0;
      for (size_t k = open; k < code.size(); ++k) {
        if (code[k] == '{') ++depth;
        else if (code[k] == '}' && --depth == 0) {
          end = k;
          break;
        }
      }
    }
    size_t c2 = cursor;
    uint32_t l2 = line;
    b.end_line = line_at(code, end, c2, l2);
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace torchabi::migration
