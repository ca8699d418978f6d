#include "inputs/wheel_metadata.h"
#include "common/text.h"

#include <cctype>

namespace torchabi::inputs {

namespace {

using text::trim;

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

// Reads one "op version" clause; false when it is not one.
bool parse_specifier(std::string_view clause, VersionSpecifier& out) {
  clause = trim(clause);
  static constexpr std::string_view ops[] = {"===", "~=", "==", "!=", "<=", ">=", "<", ">"};
  for (auto op : ops) {
    if (!clause.starts_with(op)) continue;
    std::string_view v = trim(clause.substr(op.size()));
    if (v.empty()) return false;
    for (char c : v)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '*' || c == '+' || c == '!' ||
            c == '-' || c == '_'))
        return false;
    out = {std::string(op), std::string(v)};
    return true;
  }
  return false;
}

}  // namespace

std::string normalize_project_name(std::string_view name) {
  std::string out;
  bool sep = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += char(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool Requirement::needs_extra() const {
  // "extra" as a whole word in the marker: `extra == "cuda"`, `"cuda" == extra`.
  for (size_t pos = marker.find("extra"); pos != std::string::npos; pos = marker.find("extra", pos + 1)) {
    const bool left_ok = pos == 0 || !name_char(marker[pos - 1]);
    const bool right_ok = pos + 5 >= marker.size() || !name_char(marker[pos + 5]);
    if (left_ok && right_ok) return true;
  }
  return false;
}

std::optional<Requirement> parse_requirement(std::string_view text) {
  Requirement r;
  r.text = std::string(trim(text));
  std::string_view s = r.text;

  size_t i = 0;
  while (i < s.size() && name_char(s[i])) ++i;
  if (i == 0 || !std::isalnum(static_cast<unsigned char>(s[0])) || !std::isalnum(static_cast<unsigned char>(s[i - 1])))
    return std::nullopt;
  r.name = std::string(s.substr(0, i));
  r.normalized = normalize_project_name(r.name);
  s = trim(s.substr(i));

  if (s.starts_with("[")) {
    size_t close = s.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view list = s.substr(1, close - 1);
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view e = trim(list.substr(0, comma));
      if (!e.empty()) r.extras.emplace_back(e);
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
    s = trim(s.substr(close + 1));
  }

  if (s.starts_with("@")) {
    // A direct reference; the marker, if any, follows whitespace and ';'.
    s = trim(s.substr(1));
    size_t semi = s.find(" ;");
    r.url = std::string(trim(s.substr(0, semi)));
    if (r.url.empty()) return std::nullopt;
    if (semi != std::string_view::npos) r.marker = std::string(trim(s.substr(semi + 2)));
    return r;
  }

  size_t semi = s.find(';');
  if (semi != std::string_view::npos) {
    r.marker = std::string(trim(s.substr(semi + 1)));
    if (r.marker.empty()) return std::nullopt;
    s = trim(s.substr(0, semi));
  }
  if (s.starts_with("(")) {
    if (!s.ends_with(")")) return std::nullopt;
    s = trim(s.substr(1, s.size() - 2));
  }
  while (!s.empty()) {
    size_t comma = s.find(',');
    VersionSpecifier spec;
    if (!parse_specifier(s.substr(0, comma), spec)) return std::nullopt;
    r.specifiers.push_back(std::move(spec));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
    if (trim(s).empty()) return std::nullopt;
  }
  return r;
}

WheelMetadata parse_wheel_metadata(std::string_view text) {
  WheelMetadata md;
  auto handle = [&](std::string_view key, std::string_view value) {
    value = trim(value);
    if (key == "Name") md.name = std::string(value);
    else if (key == "Version") md.version = std::string(value);
    else if (key == "Requires-Dist") {
      if (auto r = parse_requirement(value)) md.requires_dist.push_back(std::move(*r));
      else md.unparsed_requires.emplace_back(value);
    }
  };
  std::string key, value;
  bool have = false;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;  // the headers end at the first blank line; the description follows
    if (line.front() == ' ' || line.front() == '\t') {
      if (have) value += " " + std::string(trim(line));  // folded continuation
      continue;
    }
    if (have) handle(key, value);
    size_t colon = line.find(':');
    have = colon != std::string_view::npos;
    if (have) {
      key = std::string(line.substr(0, colon));
      value = std::string(line.substr(colon + 1));
    }
  }
  if (have) handle(key, value);
  return md;
}

}  // namespace torchabi::inputs
