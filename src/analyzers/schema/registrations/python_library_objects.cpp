#include "analyzers/schema/registrations/python_library_objects.h"

#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>

namespace torchabi::schema {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_blank(std::string_view s, size_t i) {
  // Calls span lines (`lib.define(\n    "schema..."`), and a string may be
  // wrapped in parentheses for implicit concatenation.
  while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == '(')) ++i;
  return i;
}

// The string literal at `i` (prefixes r/b/u/f and triple quotes allowed), or nothing.
std::optional<std::string_view> literal_at(std::string_view s, size_t i) {
  while (i < s.size() && std::strchr("rRbBuUfF", s[i]) && s[i] != '\0') ++i;
  if (i >= s.size() || (s[i] != '"' && s[i] != '\'')) return std::nullopt;
  const char q = s[i];
  const bool triple = s.substr(i, 3) == std::string_view(std::string(3, q));
  const size_t start = i + (triple ? 3 : 1);
  const size_t end = triple ? s.find(std::string(3, q), start) : s.find(q, start);
  if (end == std::string_view::npos) return std::nullopt;
  return s.substr(start, end - start);
}

// "name" or "name.overload" at the head of a schema or op-name string.
std::optional<std::string> op_head(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const size_t start = i;
  while (i < text.size() && (ident_char(text[i]) || text[i] == ':')) ++i;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && ident_char(text[i])) ++i;
  }
  if (i == start) return std::nullopt;
  return std::string(text.substr(start, i - start));
}

// `NAME = [torch.library.]Library("ns", "KIND"...)`: NAME (dotted names such
// as self._lib allowed) -> ns.
std::map<std::string, std::string> library_objects(std::string_view text) {
  std::map<std::string, std::string> out;
  for (size_t at = text.find("Library("); at != std::string_view::npos; at = text.find("Library(", at + 1)) {
    if (at > 0 && ident_char(text[at - 1])) continue;  // MyLibrary(
    auto ns = literal_at(text, skip_blank(text, at + 8));
    if (!ns || ns->empty()) continue;
    // Back over `torch.library.` then ` = ` to the bound name.
    size_t i = at;
    while (i > 0 && (ident_char(text[i - 1]) || text[i - 1] == '.')) --i;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
    if (i == 0 || text[i - 1] != '=' || (i > 1 && std::strchr("=!<>", text[i - 2]))) continue;
    --i;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
    // An annotation (`lib: Library = ...`) is skipped back over as well.
    size_t end = i;
    size_t colon = text.rfind(':', i);
    size_t line_start = text.rfind('\n', i == 0 ? 0 : i - 1);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    if (colon != std::string_view::npos && colon >= line_start) end = colon;
    while (end > line_start && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
    size_t begin = end;
    while (begin > line_start && (ident_char(text[begin - 1]) || text[begin - 1] == '.')) --begin;
    if (begin == end) continue;
    out[std::string(text.substr(begin, end - begin))] = std::string(*ns);
  }
  return out;
}

void calls_of(std::string_view text, const std::string& object, const std::string& ns, std::string_view method,
              std::set<std::string>& into) {
  const std::string call = object + "." + std::string(method) + "(";
  for (size_t at = text.find(call); at != std::string_view::npos; at = text.find(call, at + 1)) {
    if (at > 0 && (ident_char(text[at - 1]) || text[at - 1] == '.')) continue;  // other.lib.define(
    auto lit = literal_at(text, skip_blank(text, at + call.size()));
    if (!lit) continue;
    auto head = op_head(*lit);
    if (!head) continue;
    into.insert(head->find("::") != std::string::npos ? *head : ns + "::" + *head);
  }
}

}  // namespace

void scan_library_objects(const std::string& text, PythonRegistrations& into) {
  if (text.find("Library(") == std::string::npos) return;
  for (const auto& [object, ns] : library_objects(text)) {
    calls_of(text, object, ns, "define", into.defined_ops);
    calls_of(text, object, ns, "impl", into.implemented_ops);
  }
}

}  // namespace torchabi::schema
