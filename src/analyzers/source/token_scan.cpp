#include "analyzers/source/token_scan.h"

#include <algorithm>
#include <cctype>

#include "analyzers/source/lint_env.h"
#include "inputs/api_catalog.h"
#include "inputs/headeronly_index.h"

namespace torchabi::source {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// Offset just past the logical line starting at or containing `pos`
// (backslash-newline continues it), without the final newline.
uint32_t logical_line_end(std::string_view text, uint32_t pos, uint32_t end) {
  while (pos < end) {
    if (text[pos] == '\\') {
      uint32_t k = pos + 1;
      if (k < end && text[k] == '\r') ++k;
      if (k < end && text[k] == '\n') {
        pos = k + 1;
        continue;
      }
    }
    if (text[pos] == '\n') return pos;
    ++pos;
  }
  return end;
}

// Past a "..." or '...' literal starting at `pos` (on the quote).
uint32_t skip_quoted(std::string_view text, uint32_t pos, uint32_t end) {
  const char q = text[pos++];
  while (pos < end && text[pos] != q && text[pos] != '\n') {
    if (text[pos] == '\\') ++pos;
    ++pos;
  }
  return std::min(end, pos + 1);
}

// Past R"delim( ... )delim" starting at `pos` (on the quote).
uint32_t skip_raw(std::string_view text, uint32_t pos, uint32_t end) {
  uint32_t open = pos + 1;
  while (open < end && text[open] != '(' && open - pos <= 17) ++open;
  if (open >= end || text[open] != '(') return skip_quoted(text, pos, end);
  const std::string close = ")" + std::string(text.substr(pos + 1, open - pos - 1)) + "\"";
  size_t at = text.substr(0, end).find(close, open + 1);
  return at == std::string_view::npos ? end : static_cast<uint32_t>(at + close.size());
}

bool at_line_start(std::string_view text, uint32_t pos) {
  while (pos > 0) {
    char c = text[pos - 1];
    if (c == '\n') return true;
    if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') return false;
    --pos;
  }
  return true;
}

}  // namespace

std::vector<LexToken> lex_source(std::string_view text, uint32_t begin, uint32_t end) {
  std::vector<LexToken> out;
  end = std::min<uint32_t>(end, static_cast<uint32_t>(text.size()));
  uint32_t pos = begin;
  bool line_start = at_line_start(text, begin);
  while (pos < end) {
    const char c = text[pos];
    const char n = pos + 1 < end ? text[pos + 1] : '\0';
    if (c == '\n') {
      line_start = true;
      ++pos;
      continue;
    }
    if (c == '\\' && (n == '\n' || n == '\r')) {
      pos += n == '\r' ? 3 : 2;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos;
      continue;
    }
    if (c == '/' && n == '/') {
      pos = logical_line_end(text, pos, end);
      continue;
    }
    if (c == '/' && n == '*') {
      size_t close = text.substr(0, end).find("*/", pos + 2);
      pos = close == std::string_view::npos ? end : static_cast<uint32_t>(close + 2);
      continue;
    }
    LexToken t;
    t.begin = pos;
    if (c == '#' && line_start) {
      t.kind = LexToken::Kind::Directive;
      t.end = logical_line_end(text, pos, end);
      pos = t.end;
      out.push_back(t);
      continue;
    }
    line_start = false;
    if (ident_start(c)) {
      uint32_t e = pos + 1;
      while (e < end && ident_char(text[e])) ++e;
      const std::string_view word = text.substr(pos, e - pos);
      if (e < end && (text[e] == '"' || text[e] == '\'')) {
        const bool raw = text[e] == '"' && !word.empty() && word.back() == 'R' &&
                         (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR");
        if (raw || word == "u8" || word == "u" || word == "U" || word == "L") {
          t.kind = LexToken::Kind::Literal;
          t.end = raw ? skip_raw(text, e, end) : skip_quoted(text, e, end);
          pos = t.end;
          out.push_back(t);
          continue;
        }
      }
      t.kind = LexToken::Kind::Identifier;
      t.end = e;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(n)))) {
      uint32_t e = pos + 1;
      while (e < end) {
        const char d = text[e];
        if (ident_char(d) || d == '.' || d == '\'') {
          ++e;
        } else if ((d == '+' || d == '-') && (text[e - 1] == 'e' || text[e - 1] == 'E' || text[e - 1] == 'p' || text[e - 1] == 'P')) {
          ++e;
        } else {
          break;
        }
      }
      t.kind = LexToken::Kind::Number;
      t.end = e;
    } else if (c == '"' || c == '\'') {
      t.kind = LexToken::Kind::Literal;
      t.end = skip_quoted(text, pos, end);
    } else {
      t.kind = LexToken::Kind::Punct;
      t.end = pos + ((c == ':' && n == ':') || (c == '-' && n == '>') ? 2 : 1);
    }
    pos = t.end;
    out.push_back(t);
  }
  return out;
}

LineIndex::LineIndex(std::string_view text) {
  starts_.push_back(0);
  for (uint32_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts_.push_back(i + 1);
}

std::pair<uint32_t, uint32_t> LineIndex::at(uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  const size_t line = static_cast<size_t>(it - starts_.begin());  // 1-based
  return {static_cast<uint32_t>(line), offset - starts_[line - 1] + 1};
}

namespace {

class Scanner {
public:
  Scanner(std::string_view text, const TokenScanRules& rules, std::vector<TokenUse>& out)
      : text_(text), rules_(rules), out_(out) {}

  void scan(uint32_t begin, uint32_t end) {
    const std::vector<LexToken> toks = lex_source(text_, begin, end);
    for (size_t i = 0; i < toks.size(); ++i) {
      if (toks[i].kind == LexToken::Kind::Directive) {
        directive(toks[i]);
        continue;
      }
      i = token(toks, i);
    }
  }

private:
  std::string_view str(const LexToken& t) const { return text_.substr(t.begin, t.end - t.begin); }
  static bool is(const std::vector<LexToken>& toks, size_t i, std::string_view s, std::string_view text) {
    return i < toks.size() && text.substr(toks[i].begin, toks[i].end - toks[i].begin) == s;
  }
  bool is(const std::vector<LexToken>& toks, size_t i, std::string_view s) const { return is(toks, i, s, text_); }
  static bool ident(const std::vector<LexToken>& toks, size_t i) {
    return i < toks.size() && toks[i].kind == LexToken::Kind::Identifier;
  }

  void add(TokenUseKind kind, std::string symbol, uint32_t begin, uint32_t end) {
    TokenUse u;
    u.kind = kind;
    u.symbol = std::move(symbol);
    u.written = std::string(text_.substr(begin, end - begin));
    u.begin = begin;
    u.end = end;
    out_.push_back(std::move(u));
  }

  bool unstable_name(const std::string& name) const {
    if (rules_.known_not_unstable && rules_.known_not_unstable(name)) return false;
    if (rules_.env->stable_apis.find(name)) return false;
    if (rules_.env->catalog->classify(name).kind != inputs::NamespaceKind::Unstable) return false;
    // c10::ScalarType, at::Half: spelled in an unstable namespace, defined in torch/headeronly.
    return !inputs::HeaderOnlyIndex::current().defines_name(name);
  }

  std::string resolved(const std::string& written) const {
    std::string key = written.starts_with("::") ? written.substr(2) : written;
    if (rules_.resolved_spellings)
      if (auto it = rules_.resolved_spellings->find(key); it != rules_.resolved_spellings->end()) return it->second;
    return key;
  }

  bool is_macro(std::string_view word) const {
    if (rules_.env->replacements.find(word, "macro")) return true;
    return rules_.is_torch_macro && rules_.is_torch_macro(word);
  }

  // `T [const] [&|&&|*]... name` followed by what ends a declarator: `name`
  // is a variable of type `type` from here on.
  void maybe_declaration(const std::vector<LexToken>& toks, size_t after_type, const std::string& type) {
    size_t k = after_type;
    if (is(toks, k, "<")) return;  // a template's arguments: not the variable's type itself
    while (k < toks.size() && (is(toks, k, "const") || is(toks, k, "&") || is(toks, k, "*") || is(toks, k, "volatile")))
      ++k;
    if (!ident(toks, k) || k + 1 >= toks.size()) return;
    const std::string_view next = str(toks[k + 1]);
    if (next == "=" || next == ";" || next == "(" || next == "{" || next == "," || next == ")" || next == "[" ||
        next == ":")
      locals_[std::string(str(toks[k]))] = type;
  }

  // TORCH_LIBRARY(ns, m) { m.def(...); }: torch/library.h's registration
  // macros define a function whose `torch::Library&` parameter is their last
  // argument, so `m.def` in the block is torch::Library::def.
  void library_block(const std::vector<LexToken>& toks, size_t i, std::string_view macro) {
    if (macro != "TORCH_LIBRARY" && macro != "TORCH_LIBRARY_IMPL" && macro != "TORCH_LIBRARY_FRAGMENT") return;
    if (!is(toks, i + 1, "(")) return;
    size_t k = i + 2;
    std::string_view last;
    for (int depth = 1; k < toks.size() && depth > 0; ++k) {
      const std::string_view s = str(toks[k]);
      if (s == "(") ++depth;
      else if (s == ")") --depth;
      else if (depth == 1 && toks[k].kind == LexToken::Kind::Identifier) last = s;
      else if (depth == 1 && s == ",") last = {};
    }
    if (!last.empty()) locals_[std::string(last)] = "torch::Library";
  }

  std::string variable_type(std::string_view name, uint32_t offset) const {
    if (auto it = locals_.find(std::string(name)); it != locals_.end()) return it->second;
    return rules_.variable_type ? rules_.variable_type(name, offset) : std::string();
  }

  // Index of the last token consumed.
  size_t token(const std::vector<LexToken>& toks, size_t i) {
    const LexToken& t = toks[i];
    const bool leading_colons = t.kind == LexToken::Kind::Punct && str(t) == "::" && ident(toks, i + 1) &&
                                (i == 0 || (toks[i - 1].kind != LexToken::Kind::Identifier && !is(toks, i - 1, ">")));
    if (t.kind != LexToken::Kind::Identifier && !leading_colons) return i;
    const std::string_view prev = i > 0 ? str(toks[i - 1]) : std::string_view();
    if (!leading_colons && (prev == "." || prev == "->" || prev == "::")) return i;
    const std::string_view word = str(t);

    if (word == "using" && is(toks, i + 1, "namespace")) {
      size_t j = i + 2;
      if (is(toks, j, "::")) ++j;
      std::string name;
      const size_t first = j;
      while (ident(toks, j)) {
        name += (name.empty() ? "" : "::") + std::string(str(toks[j]));
        if (!is(toks, j + 1, "::")) break;
        j += 2;
      }
      if (!name.empty() && rules_.names && unstable_name(name + "::x"))
        add(TokenUseKind::Namespace, name, toks[first].begin, toks[j].end);
      return std::max(i + 1, j);
    }

    // A qualified name: [::] id :: id ...
    size_t j = leading_colons ? i + 1 : i;
    if (leading_colons || (is(toks, i + 1, "::") && ident(toks, i + 2))) {
      std::string written;
      while (ident(toks, j)) {
        if (!written.empty() && !written.ends_with("::")) written += "::";
        written += str(toks[j]);
        if (!(is(toks, j + 1, "::") && ident(toks, j + 2))) break;
        j += 2;
      }
      if (leading_colons) written = "::" + written;
      const bool namespace_decl = prev == "namespace";
      const std::string name = resolved(written);
      if (!namespace_decl && rules_.names && unstable_name(name)) {
        add(TokenUseKind::Name, name, t.begin, toks[j].end);
        if (rules_.members) maybe_declaration(toks, j + 1, name);
      }
      return j;
    }

    if (rules_.macros && is_macro(word)) {
      if (word == "PYBIND11_MODULE" && !rules_.torch_types) return i;
      add(TokenUseKind::Macro, std::string(word), t.begin, t.end);
      library_block(toks, i, word);
      return i;
    }

    if (rules_.members) {
      // this->x.m, x.m, x->m
      size_t obj = i;
      if (word == "this" && is(toks, i + 1, "->") && ident(toks, i + 2)) obj = i + 2;
      if ((is(toks, obj + 1, ".") || is(toks, obj + 1, "->")) && ident(toks, obj + 2)) {
        const std::string type = variable_type(str(toks[obj]), toks[obj].begin);
        if (!type.empty()) {
          add(TokenUseKind::Member, type + "::" + std::string(str(toks[obj + 2])), toks[obj].begin, toks[obj + 2].end);
          return obj + 2;
        }
      }
    }

    if (rules_.unqualified && rules_.unqualified_names && !is(toks, i + 1, "::")) {
      auto it = rules_.unqualified_names->find(std::string(word));
      if (it != rules_.unqualified_names->end()) {
        if (it->second.function) {
          if (is(toks, i + 1, "(") || is(toks, i + 1, "<")) add(TokenUseKind::Unqualified, it->second.qualified, t.begin, t.end);
        } else if (prev != "struct" && prev != "class" && prev != "enum" && prev != "typename") {
          add(TokenUseKind::Unqualified, it->second.qualified, t.begin, t.end);
          if (rules_.members) maybe_declaration(toks, i + 1, it->second.qualified);
        }
      }
    }
    return i;
  }

  void directive(const LexToken& d) {
    uint32_t p = d.begin + 1;
    auto blank = [&](char c) { return c == ' ' || c == '\t'; };
    while (p < d.end && blank(text_[p])) ++p;
    uint32_t name_end = p;
    while (name_end < d.end && ident_char(text_[name_end])) ++name_end;
    const std::string_view name = text_.substr(p, name_end - p);
    p = name_end;
    while (p < d.end && blank(text_[p])) ++p;
    if (name == "include" || name == "include_next" || name == "import") {
      if (!rules_.includes || p >= d.end) return;
      const char open = text_[p];
      const char close = open == '<' ? '>' : open == '"' ? '"' : '\0';
      if (!close) return;
      size_t stop = text_.find(close, p + 1);
      if (stop == std::string_view::npos || stop > d.end) return;
      const std::string header(text_.substr(p + 1, stop - p - 1));
      if (rules_.env->classifier.classify(header) == HeaderKind::Unstable)
        add(TokenUseKind::Include, header, p, static_cast<uint32_t>(stop + 1));
      return;
    }
    if (name != "define") return;
    // The macro's name is a definition, not a use; its body is code.
    while (p < d.end && ident_char(text_[p])) ++p;
    if (p < d.end && text_[p] == '(') {
      size_t close = text_.find(')', p);
      p = close == std::string_view::npos || close > d.end ? d.end : static_cast<uint32_t>(close + 1);
    }
    const std::vector<LexToken> body = lex_source(text_, p, d.end);
    for (size_t i = 0; i < body.size(); ++i) i = token(body, i);
  }

  std::string_view text_;
  const TokenScanRules& rules_;
  std::vector<TokenUse>& out_;
  std::unordered_map<std::string, std::string> locals_;  // variables declared in the scanned text
};

}  // namespace

std::vector<TokenUse> scan_token_uses(std::string_view text, uint32_t begin, uint32_t end, const TokenScanRules& rules) {
  std::vector<TokenUse> out;
  if (!rules.env || begin >= end) return out;
  Scanner(text, rules, out).scan(begin, std::min<uint32_t>(end, static_cast<uint32_t>(text.size())));
  return out;
}

}  // namespace torchabi::source
