#include "analyzers/source/inactive_branches.h"

#include <algorithm>
#include <cctype>

#include "analyzers/source/token_scan.h"

namespace torchabi::source {

namespace {

// The directive on one line: continuations joined, comments and runs of blanks dropped.
std::string one_line(std::string_view d) {
  std::string out;
  bool blank = false;
  for (size_t i = 0; i < d.size(); ++i) {
    const char c = d[i];
    if (c == '/' && i + 1 < d.size() && (d[i + 1] == '/' || d[i + 1] == '*')) {
      if (d[i + 1] == '/') break;
      size_t close = d.find("*/", i + 2);
      if (close == std::string_view::npos) break;
      i = close + 1;
      blank = true;
      continue;
    }
    if (c == '\\' && i + 1 < d.size() && (d[i + 1] == '\n' || d[i + 1] == '\r')) {
      blank = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += c;
  }
  // "# ifdef X" -> "#ifdef X"
  if (out.size() > 2 && out[0] == '#' && out[1] == ' ') out.erase(1, 1);
  return out;
}

std::string directive_name(std::string_view line) {
  size_t p = 1;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  size_t e = p;
  while (e < line.size() && (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) ++e;
  return std::string(line.substr(p, e - p));
}

std::string operand(const std::string& one) {
  size_t sp = one.find(' ');
  return sp == std::string::npos ? std::string() : one.substr(sp + 1);
}

}  // namespace

std::string ConditionalBranch::describe() const {
  if (directive == chain_opening) return "`" + directive + "`";
  return "`" + directive + "` of `" + chain_opening + "` (line " + std::to_string(chain_line) + ")";
}

std::vector<ConditionalBranch> scan_conditional_branches(std::string_view text) {
  std::vector<ConditionalBranch> out;
  const std::vector<LexToken> toks = lex_source(text, 0, static_cast<uint32_t>(text.size()));
  const LineIndex lines(text);
  struct Open {
    std::string opening;
    uint32_t line = 0;
    uint32_t begin = 0;
    size_t current = 0;  // index in `out` of the branch being read
    size_t first_token = 0;
  };
  std::vector<Open> stack;
  for (size_t i = 0; i < toks.size(); ++i) {
    const LexToken& t = toks[i];
    if (t.kind != LexToken::Kind::Directive) continue;
    const std::string_view raw = text.substr(t.begin, t.end - t.begin);
    const std::string name = directive_name(raw);
    const bool opens = name == "if" || name == "ifdef" || name == "ifndef";
    const bool continues = name == "elif" || name == "else" || name == "elifdef" || name == "elifndef";
    if (!opens && !continues && name != "endif") continue;
    if ((continues || name == "endif") && stack.empty()) continue;  // unbalanced: ignore
    if (continues || name == "endif") out[stack.back().current].body_end = t.begin;
    if (name == "endif") {
      // The include guard: `#ifndef X` first, `#define X` next, this #endif last.
      const Open& o = stack.back();
      const ConditionalBranch& first = out[o.current];
      if (stack.size() == 1 && o.first_token == 0 && first.directive == first.chain_opening &&
          first.directive.starts_with("#ifndef ") && i + 1 == toks.size() && toks.size() > 1 &&
          toks[1].kind == LexToken::Kind::Directive) {
        const std::string def = one_line(text.substr(toks[1].begin, toks[1].end - toks[1].begin));
        const std::string guard = operand(first.directive);
        if (directive_name(def) == "define" && (operand(def) == guard || operand(def).starts_with(guard + " ")))
          for (auto& b : out)
            if (b.chain_begin == o.begin) b.include_guard = true;
      }
      stack.pop_back();
      continue;
    }
    ConditionalBranch b;
    b.directive = one_line(raw);
    b.directive_begin = t.begin;
    b.body_begin = t.end < text.size() ? t.end + 1 : t.end;
    b.body_end = static_cast<uint32_t>(text.size());
    b.line = lines.at(t.begin).first;
    if (opens) {
      stack.push_back({b.directive, b.line, t.begin, 0, i});
    }
    b.chain_opening = stack.back().opening;
    b.chain_line = stack.back().line;
    b.chain_begin = stack.back().begin;
    stack.back().current = out.size();
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<ConditionalBranch> inactive_branches(std::string_view text,
                                                 const std::vector<std::pair<uint32_t, uint32_t>>& skipped) {
  std::vector<ConditionalBranch> out;
  if (skipped.empty()) return out;
  const std::vector<ConditionalBranch> all = scan_conditional_branches(text);
  for (const auto& [begin, end] : skipped) {
    // The branch the range starts at, then its later siblings inside the range.
    auto opener = std::find_if(all.begin(), all.end(), [&](const ConditionalBranch& b) { return b.directive_begin == begin; });
    if (opener == all.end() || opener->include_guard) continue;
    for (auto it = opener; it != all.end() && it->directive_begin < std::max(end, begin + 1); ++it) {
      if (it->chain_begin != opener->chain_begin) continue;  // nested: part of a sibling's body
      // The range ends inside the directive that ends the skipped part: a
      // taken #elif/#else is that directive, not a skipped branch.
      if (it != opener && it->body_begin > end) break;
      const bool seen = std::any_of(out.begin(), out.end(), [&](const ConditionalBranch& o) { return o.directive_begin == it->directive_begin; });
      if (!seen) out.push_back(*it);
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.directive_begin < b.directive_begin; });
  return out;
}

}  // namespace torchabi::source
