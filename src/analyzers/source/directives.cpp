#include "analyzers/source/directives.h"

#include <cctype>

namespace torchabi::source {

namespace {

std::string strip_comments(std::string s) {
  for (size_t p = s.find("/*"); p != std::string::npos; p = s.find("/*", p)) {
    size_t e = s.find("*/", p + 2);
    s.replace(p, e == std::string::npos ? std::string::npos : e + 2 - p, " ");
  }
  if (size_t p = s.find("//"); p != std::string::npos) s.erase(p);
  return s;
}

}  // namespace

std::vector<Directive> scan_directives(std::string_view text) {
  std::vector<Directive> out;
  uint32_t line = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    ++line;
    size_t k = pos;
    while (k < end && (text[k] == ' ' || text[k] == '\t')) ++k;
    if (k < end && text[k] == '#') {
      Directive d;
      d.line = line;
      d.offset = static_cast<uint32_t>(pos);
      size_t kw = k + 1;
      while (kw < end && (text[kw] == ' ' || text[kw] == '\t')) ++kw;
      size_t kw_end = kw;
      while (kw_end < end && std::isalpha(static_cast<unsigned char>(text[kw_end]))) ++kw_end;
      d.keyword = std::string(text.substr(kw, kw_end - kw));
      d.rest_offset = static_cast<uint32_t>(kw_end);
      std::string rest(text.substr(kw_end, end - kw_end));
      if (!rest.empty() && rest.back() == '\r') rest.pop_back();
      while (!rest.empty() && rest.back() == '\\' && nl != std::string_view::npos) {
        rest.pop_back();
        d.continued = true;
        pos = nl + 1;
        nl = text.find('\n', pos);
        end = nl == std::string_view::npos ? text.size() : nl;
        rest += std::string(text.substr(pos, end - pos));
        if (!rest.empty() && rest.back() == '\r') rest.pop_back();
        ++line;
      }
      d.rest = strip_comments(rest);
      out.push_back(std::move(d));
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

}  // namespace torchabi::source
