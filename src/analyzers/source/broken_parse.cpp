#include "analyzers/source/broken_parse.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "analyzers/source/compile_errors.h"
#include "findings/note_prefixes.h"

namespace torchabi::source {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }

// The qualified name written around (line, column) of `text`: "torch::headeronly::ScalarType::Double".
std::string spelled_at(std::string_view text, uint32_t line, uint32_t column) {
  size_t pos = 0;
  for (uint32_t l = 1; l < line && pos != std::string_view::npos; ++l) {
    pos = text.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos || column == 0) return {};
  size_t at = pos + column - 1;
  if (at >= text.size()) return {};
  size_t begin = at, end = at;
  while (begin > pos && is_name_char(text[begin - 1])) --begin;
  while (end < text.size() && is_name_char(text[end])) ++end;
  return std::string(text.substr(begin, end - begin));
}

// A name the code spells as the non-stable API (at::, c10::, torch:: outside
// the stable namespaces) is a use of it whatever the parse lost.
bool spelled_unstable(std::string name) {
  if (name.starts_with("::")) name.erase(0, 2);
  if (name.starts_with("at::") || name.starts_with("c10::")) return true;
  return name.starts_with("torch::") && !name.starts_with("torch::stable") && !name.starts_with("torch::headeronly");
}

bool same_line(const findings::Finding& a, const findings::Finding& b) {
  return a.location.file == b.location.file && a.location.line == b.location.line;
}

}  // namespace

std::optional<BrokenParse> parse_broken_by(const ParsedTu& tu) {
  if (tu.error_count() == 0) return std::nullopt;
  bool stable = false;
  const IncludeDirective* cause = nullptr;
  for (const auto& d : tu.includes()) {
    if (!tu.is_project_file(d.includer)) continue;
    stable |= d.kind == HeaderKind::Stable;
    if (d.kind == HeaderKind::Unstable && !cause) cause = &d;
  }
  if (!stable || !cause) return std::nullopt;
  // Broken by it: an error in a header (its #error, declarations that
  // collide), or at the include itself (not found).
  bool broken = false;
  for (const auto& d : tu.diagnostics()) {
    if (!is_error(d)) continue;
    broken |= !d.file.empty() && !tu.is_project_file(d.file);
    broken |= d.file == cause->includer && d.line == cause->range.line;
  }
  if (!broken) return std::nullopt;
  return BrokenParse{cause->angled ? "<" + cause->spelled + ">" : "\"" + cause->spelled + "\"",
                     display_path(cause->includer) + ":" + std::to_string(cause->range.line)};
}

bool rests_on_declarations(const std::string& rule) {
  static const std::set<std::string> kRules = {
      "source-unstable-api",          "build-api-not-in-headers",   "build-api-hidden-by-configuration",
      "build-api-header-not-included", "source-undefined-stable-function", "source-shim-declaration-mismatch",
      "source-dispatcher-scalar-arg", "source-stream-id-as-handle"};
  return kRules.count(rule) > 0 || rule.starts_with("schema-");
}

void note_what_rests_on_a_broken_parse(const ParsedTu& tu, TuResult& result) {
  const auto broken = parse_broken_by(tu);
  if (!broken) return;
  result.subject.facts.emplace_back(std::string(findings::kParseBrokenBy), broken->text());
  const std::string because = std::string(findings::kRestsOnBrokenParse) + broken->text();
  std::vector<size_t> includes;
  for (size_t k = 0; k < result.findings.size(); ++k)
    if (result.findings[k].rule == "source-unstable-include") includes.push_back(k);
  std::vector<std::pair<size_t, std::string>> header_errors;  // include finding, the header's #error
  for (auto& f : result.findings) {
    if (f.severity && *f.severity == findings::Severity::Note) continue;
    bool demote = false;
    if (f.rule == "build-header-error") {
      // The include the user wrote is the error; the header's #error says why it is one.
      for (const size_t k : includes)
        if (same_line(result.findings[k], f)) {
          demote = true;
          header_errors.emplace_back(k, f.message);
          break;
        }
    } else if (rests_on_declarations(f.rule)) {
      demote = !(f.rule == "source-unstable-api" &&
                 spelled_unstable(spelled_at(tu.file_text(f.location.file), f.location.line, f.location.column)));
    }
    if (!demote) continue;
    f.severity = findings::Severity::Note;
    if (f.rule == "build-header-error") {
      f.message += " (the error is the include: source-unstable-include at this line)";
      continue;
    }
    f.message += " (" + because + ")";
    f.notes.push_back(because + ": the declarations it lost or brought in decide this finding; fix the include first");
  }
  for (const auto& [k, e] : header_errors) {
    auto& notes = result.findings[k].notes;
    if (std::find(notes.begin(), notes.end(), e) == notes.end()) notes.push_back(e);
  }
}

}  // namespace torchabi::source
