#include "analyzers/source/feature_guards.h"
#include "common/text.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "analyzers/source/version_expr.h"

namespace torchabi::source {

namespace {

// The text with comments blanked out (newlines kept, so lines still count),
// so that `#endif // ...` and directives inside /* */ read right.
std::string without_comments(std::string_view text) {
  std::string out(text);
  size_t i = 0;
  while (i < out.size()) {
    const char c = out[i];
    if (c == '"' || (c == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(out[i - 1]))))) {
      for (++i; i < out.size() && out[i] != c && out[i] != '\n'; ++i)
        if (out[i] == '\\') ++i;
      ++i;
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      // A line comment ends at a newline not escaped by a backslash.
      for (; i < out.size() && out[i] != '\n'; ++i)
        if (!(out[i] == '\\' && i + 1 < out.size() && out[i + 1] == '\n')) out[i] = ' ';
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i)
        if (out[i] != '\n') out[i] = ' ';
    } else {
      ++i;
    }
  }
  return out;
}

using text::trim;

struct Frame {
  VersionSet enclosing;  // where the #if itself is compiled
  VersionSet rest;       // where every condition of the chain so far was false
};

}  // namespace

FeatureGuards FeatureGuards::scan(std::string_view raw) {
  FeatureGuards g;
  const std::string text = without_comments(raw);
  std::vector<Frame> stack;
  VersionSet current = VersionSet::all();
  g.segments_.push_back({1, current});
  auto enter = [&](unsigned next_line, VersionSet s) {
    current = std::move(s);
    if (g.segments_.back().versions == current) return;
    if (g.segments_.back().first_line == next_line) g.segments_.back().versions = current;
    else g.segments_.push_back({next_line, current});
  };
  auto condition = [&](std::string_view cond) {
    FeatureCondition c = evaluate_feature_condition(cond);
    g.has_version_guards_ = g.has_version_guards_ || c.tests_feature_version;
    return c;
  };

  unsigned line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    // One logical line: physical lines joined at backslash-newlines.
    std::string line;
    for (;;) {
      size_t nl = text.find('\n', pos);
      std::string_view part(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
      ++line_no;
      pos = nl == std::string::npos ? text.size() : nl + 1;
      if (!part.empty() && part.back() == '\r') part.remove_suffix(1);
      if (!part.empty() && part.back() == '\\' && nl != std::string::npos) {
        line += part.substr(0, part.size() - 1);
        continue;
      }
      line += part;
      break;
    }
    std::string_view l = trim(line);
    if (l.empty() || l.front() != '#') continue;
    l = trim(l.substr(1));
    size_t n = 0;
    while (n < l.size() && (std::isalpha(static_cast<unsigned char>(l[n])) || l[n] == '_')) ++n;
    const std::string_view dir = l.substr(0, n), rest = trim(l.substr(n));
    const unsigned next = line_no + 1;
    if (dir == "if" || dir == "ifdef" || dir == "ifndef") {
      FeatureCondition c = dir == "if" ? condition(rest) : FeatureCondition{};
      stack.push_back({current, c.when_false});
      enter(next, current & c.when_true);
    } else if ((dir == "elif" || dir == "elifdef" || dir == "elifndef") && !stack.empty()) {
      FeatureCondition c = dir == "elif" ? condition(rest) : FeatureCondition{};
      Frame& f = stack.back();
      enter(next, f.enclosing & f.rest & c.when_true);
      f.rest = f.rest & c.when_false;
    } else if (dir == "else" && !stack.empty()) {
      Frame& f = stack.back();
      enter(next, f.enclosing & f.rest);
      f.rest = VersionSet::none();
    } else if (dir == "endif" && !stack.empty()) {
      VersionSet outer = stack.back().enclosing;
      stack.pop_back();
      enter(next, std::move(outer));
    } else if (dir == "define") {
      size_t e = 0;
      while (e < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[e])) || rest[e] == '_')) ++e;
      if (rest.substr(0, e) == "TORCH_FEATURE_VERSION") g.defines_feature_version_ = true;
    }
  }
  return g;
}

const VersionSet& FeatureGuards::compiled_at(unsigned line) const {
  auto it = std::upper_bound(segments_.begin(), segments_.end(), line,
                             [](unsigned l, const Segment& s) { return l < s.first_line; });
  return it == segments_.begin() ? segments_.front().versions : std::prev(it)->versions;
}

std::optional<TorchVersion> FeatureGuards::required_at(unsigned line) const {
  auto low = compiled_at(line).lowest();
  if (!low || *low == 0) return std::nullopt;
  return TorchVersion::decode(*low);
}

std::vector<VersionSet> FeatureGuards::distinct_sets() const {
  std::vector<VersionSet> out;
  for (const auto& s : segments_)
    if (std::find(out.begin(), out.end(), s.versions) == out.end()) out.push_back(s.versions);
  return out;
}

}  // namespace torchabi::source
