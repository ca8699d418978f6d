#include "analyzers/source/cpp_type_name.h"
#include "common/text.h"

#include <cctype>
#include <vector>

namespace torchabi::source {

namespace {

// Removes whole words (const, volatile, struct, ...) and collapses spaces.
std::string clean_name(std::string_view raw) {
  std::string out;
  size_t i = 0;
  while (i < raw.size()) {
    if (raw[i] == ' ') {
      ++i;
      continue;
    }
    size_t j = i;
    if (std::isalnum(static_cast<unsigned char>(raw[i])) || raw[i] == '_' || raw[i] == ':') {
      while (j < raw.size() && (std::isalnum(static_cast<unsigned char>(raw[j])) || raw[j] == '_' || raw[j] == ':')) ++j;
    } else {
      j = i + 1;
    }
    std::string word(raw.substr(i, j - i));
    i = j;
    if (word == "const" || word == "volatile" || word == "struct" || word == "class" || word == "enum" ||
        word == "union" || word == "typename")
      continue;
    if (!out.empty() && (std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == '_') &&
        (std::isalnum(static_cast<unsigned char>(word[0])) || word[0] == '_'))
      out += ' ';
    out += word;
  }
  // Inline namespaces of the standard libraries: std::__1::, std::__cxx11::.
  for (size_t at; (at = out.find("::__")) != std::string::npos;) {
    size_t end = out.find("::", at + 4);
    if (out.compare(0, 5, "std::") != 0 || end == std::string::npos) break;
    out.erase(at, end - at);
  }
  static const std::pair<const char*, const char*> kBuiltins[] = {
      {"long", "int64_t"},           {"long int", "int64_t"},          {"long long", "int64_t"},
      {"long long int", "int64_t"},  {"signed long", "int64_t"},       {"unsigned long", "uint64_t"},
      {"unsigned long int", "uint64_t"}, {"unsigned long long", "uint64_t"}, {"long unsigned int", "uint64_t"},
      {"signed char", "int8_t"},     {"unsigned char", "uint8_t"},     {"std::nullptr_t", "std::nullptr_t"},
  };
  for (auto [from, to] : kBuiltins)
    if (out == from) return to;
  return out;
}

class Parser {
public:
  explicit Parser(std::string_view s) : s_(s) {}

  CppTypeTree parse() {
    CppTypeTree n;
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != '<' && s_[pos_] != ',' && s_[pos_] != '>' && s_[pos_] != '*' &&
           s_[pos_] != '&' && s_[pos_] != '[')
      ++pos_;
    n.name = clean_name(s_.substr(start, pos_ - start));
    if (pos_ < s_.size() && s_[pos_] == '<') {
      n.templated = true;
      ++pos_;
      while (pos_ < s_.size() && s_[pos_] != '>') {
        n.args.push_back(parse());
        if (pos_ < s_.size() && s_[pos_] == ',') ++pos_;
        else break;
      }
      if (pos_ < s_.size() && s_[pos_] == '>') ++pos_;
      // A member of a template (`X<T>::type`) or a trailing qualifier.
      size_t rest = pos_;
      while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '>' && s_[pos_] != '*' && s_[pos_] != '&' &&
             s_[pos_] != '[')
        ++pos_;
      std::string tail = clean_name(s_.substr(rest, pos_ - rest));
      if (!tail.empty()) n.suffix += tail;
    }
    while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '>') {
      char c = s_[pos_++];
      if (c == '*') n.suffix += '*';
      else if (c == '[') {
        size_t close = s_.find(']', pos_);
        if (close == std::string_view::npos) close = s_.size() - 1;
        n.suffix += "[" + std::string(text::trim(s_.substr(pos_, close - pos_))) + "]";
        pos_ = close + 1;
      }
      // '&', "const" after '*' and spaces are dropped: references are
      // recorded separately and cv-qualifiers do not change the type here.
    }
    return n;
  }

private:
  std::string_view s_;
  size_t pos_ = 0;
};

bool is_allocator_of(const CppTypeTree& n, const std::string& elem) {
  return n.name == "std::allocator" && n.args.size() == 1 && n.args[0].name == elem;
}

// Default template arguments the canonical spelling spells out.
void drop_defaults(CppTypeTree& n) {
  for (CppTypeTree& a : n.args) drop_defaults(a);
  if ((n.name == "std::vector" || n.name == "std::deque" || n.name == "std::list") && n.args.size() == 2 &&
      n.args[1].name == "std::allocator")
    n.args.pop_back();
  if (n.name == "std::basic_string" && !n.args.empty() && n.args[0].name == "char") {
    bool defaults = n.args.size() == 1 || (n.args.size() >= 2 && n.args[1].name == "std::char_traits");
    if (defaults && (n.args.size() < 3 || is_allocator_of(n.args[2], "char"))) {
      n = CppTypeTree{"std::string", {}, false, n.suffix};
      return;
    }
  }
  if ((n.name == "std::basic_string_view" || n.name == "c10::basic_string_view") && !n.args.empty() &&
      n.args[0].name == "char" && (n.args.size() == 1 || n.args[1].name == "std::char_traits")) {
    n = CppTypeTree{n.name == "std::basic_string_view" ? "std::string_view" : "c10::string_view", {}, false, n.suffix};
    return;
  }
}

}  // namespace

std::string print(const CppTypeTree& n) {
  std::string out = n.name;
  if (n.templated) {
    out += "<";
    for (size_t i = 0; i < n.args.size(); ++i) out += (i ? ", " : "") + print(n.args[i]);
    out += ">";
  }
  return out + n.suffix;
}

CppTypeTree parse_cpp_type(std::string_view spelling) { return Parser(spelling).parse(); }

std::string normalize_cpp_type(std::string_view canonical) {
  CppTypeTree n = parse_cpp_type(canonical);
  drop_defaults(n);
  return print(n);
}

}  // namespace torchabi::source
