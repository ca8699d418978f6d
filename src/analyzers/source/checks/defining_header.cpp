#include "analyzers/source/checks/defining_header.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace torchabi::source::checks {

namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Index just past the bracket matching text[open] ('(' or '<'); npos if unbalanced.
size_t skip_balanced(const std::string& text, size_t open) {
  const char o = text[open], c = o == '(' ? ')' : '>';
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == o) ++depth;
    else if (text[i] == c && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

size_t skip_space(const std::string& text, size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool includes_file(const std::string& text, const std::string& file_name) {
  for (const char* close : {">", "\""})
    for (const char* sep : {"/", "<", "\""})
      if (text.find(std::string(sep) + file_name + close) != std::string::npos) return true;
  return false;
}

}  // namespace

bool text_defines(const std::string& text, const std::string& needle) {
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    if (at > 0 && (ident(text[at - 1]) || text[at - 1] == ':')) continue;  // "Foo::bar" is not "bar"
    size_t i = skip_space(text, at + needle.size());
    if (i < text.size() && text[i] == '<') {
      i = skip_balanced(text, i);
      if (i == std::string::npos) continue;
      i = skip_space(text, i);
    }
    if (i >= text.size() || text[i] != '(') continue;
    i = skip_balanced(text, i);
    // Qualifiers, a trailing return type, noexcept(...) may sit before the body.
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (c == ':' && i + 1 < text.size() && text[i + 1] == ':') {
        ++i;  // a qualified name in a trailing return type
        continue;
      }
      if (c == '{' || c == ':') return true;
      if (c == ';' || c == '=' || c == '}' || c == ',') break;
      if (c == '(') {
        i = skip_balanced(text, i);
        if (i == std::string::npos) break;
        --i;
      }
    }
  }
  return false;
}

DefiningHeader find_defining_header(const std::string& declaring_file, const std::string& needle) {
  namespace fs = std::filesystem;
  DefiningHeader out;
  const fs::path decl(declaring_file);
  std::error_code ec;
  std::vector<fs::path> siblings;
  for (const auto& e : fs::directory_iterator(decl.parent_path(), ec))
    if (e.path().extension() == ".h" && e.path().filename() != decl.filename()) siblings.push_back(e.path());
  std::sort(siblings.begin(), siblings.end());
  std::vector<std::pair<fs::path, std::string>> texts;
  for (const auto& s : siblings) texts.emplace_back(s, read(s));
  for (const auto& [path, text] : texts)
    if (text_defines(text, needle)) {
      out.definer = path.filename().string();
      break;
    }
  if (out.definer.empty()) return out;
  for (const auto& [path, text] : texts)
    if (includes_file(text, out.definer) && includes_file(text, decl.filename().string())) {
      out.umbrella = path.filename().string();
      break;
    }
  return out;
}

}  // namespace torchabi::source::checks
