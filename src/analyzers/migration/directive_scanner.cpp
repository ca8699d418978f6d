#include "analyzers/migration/directive_scanner.h"

#include <cctype>

namespace torchabi::migration {

bool ByteRange::overlaps(uint32_t b, uint32_t e) const {
  // An insertion (b == e) strictly inside the range counts; touching the edges does not.
  if (b == e) return b > begin && b < end;
  return b < end && e > begin;
}

namespace {

// End of the logical line starting at `pos`: the offset just past its final
// newline (or the end of the text), following backslash-newline continuations.
size_t logical_line_end(std::string_view text, size_t pos) {
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return text.size();
    size_t last = nl;
    if (last > pos && text[last - 1] == '\r') --last;
    if (last > pos && text[last - 1] == '\\') {
      pos = nl + 1;
      continue;
    }
    return nl + 1;
  }
  return text.size();
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r'; }

}  // namespace

DirectiveScan scan_directives(std::string_view text) {
  DirectiveScan scan;
  bool in_block_comment = false;
  int depth = 0;
  uint32_t line_number = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t line_start = pos;
    const size_t end = logical_line_end(text, pos);
    const std::string_view line = text.substr(line_start, end - line_start);
    const uint32_t this_line = line_number;
    for (char c : line)
      if (c == '\n') ++line_number;
    pos = end;

    size_t i = 0;
    if (in_block_comment) {
      size_t close = line.find("*/");
      if (close == std::string_view::npos) continue;
      in_block_comment = false;
      i = close + 2;
    }
    while (i < line.size() && is_blank(line[i])) ++i;
    const bool directive = i < line.size() && line[i] == '#';
    // Track block comments that open on this line and stay open.
    for (size_t k = i; k + 1 < line.size(); ++k) {
      if (line[k] == '/' && line[k + 1] == '/') break;
      if (line[k] == '"' || line[k] == '\'') {
        const char q = line[k];
        for (++k; k < line.size() && line[k] != q; ++k)
          if (line[k] == '\\') ++k;
        continue;
      }
      if (line[k] == '/' && line[k + 1] == '*') {
        size_t close = line.find("*/", k + 2);
        if (close == std::string_view::npos) {
          in_block_comment = true;
          break;
        }
        k = close + 1;
      }
    }
    if (!directive) continue;
    size_t j = i + 1;
    while (j < line.size() && is_blank(line[j])) ++j;
    size_t name_end = j;
    while (name_end < line.size() && (std::isalpha(static_cast<unsigned char>(line[name_end])) || line[name_end] == '_'))
      ++name_end;
    const std::string_view name = line.substr(j, name_end - j);
    const ByteRange whole{uint32_t(line_start), uint32_t(end)};
    if (name == "if" || name == "ifdef" || name == "ifndef") ++depth;
    else if (name == "endif" && depth > 0) --depth;
    else if (name == "pragma" && line.find("once", name_end) != std::string_view::npos && scan.after_pragma_once == 0)
      scan.after_pragma_once = uint32_t(end);
    if (name == "define" || name == "undef") {
      scan.macro_definitions.push_back({uint32_t(line_start + i), uint32_t(end)});
    } else if (name == "include" || name == "include_next" || name == "import") {
      size_t k = name_end;
      while (k < line.size() && is_blank(line[k])) ++k;
      if (k >= line.size()) continue;
      const char open = line[k];
      const char close = open == '<' ? '>' : open == '"' ? '"' : '\0';
      if (!close) continue;  // #include MACRO: nothing we can rewrite
      size_t stop = line.find(close, k + 1);
      if (stop == std::string_view::npos) continue;
      scan.includes.push_back({whole, std::string(line.substr(k + 1, stop - k - 1)), open == '<', this_line, depth});
    }
  }
  return scan;
}

bool macro_definitions_editable(std::string_view path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return false;
  const std::string_view ext = path.substr(dot + 1);
  for (std::string_view source : {"cpp", "cc", "cxx", "c++", "cu", "hip", "mm", "c"})
    if (ext == source) return true;
  return false;
}

}  // namespace torchabi::migration
