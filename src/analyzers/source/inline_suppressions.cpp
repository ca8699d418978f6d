#include "analyzers/source/inline_suppressions.h"

#include <algorithm>
#include <cctype>
#include <fnmatch.h>
#include <set>

namespace torchabi::source {

std::optional<InlineSuppression> parse_suppression_comment(std::string_view c) {
  const std::string_view kTag = "torchabi:";
  auto at = c.find(kTag);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = c.substr(at + kTag.size());
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
  if (!rest.starts_with("ignore[")) return std::nullopt;
  rest.remove_prefix(7);
  auto close = rest.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  InlineSuppression s;
  std::string ids(rest.substr(0, close));
  size_t start = 0;
  while (start <= ids.size()) {
    size_t comma = ids.find(',', start);
    std::string id = ids.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    id.erase(0, id.find_first_not_of(" \t"));
    id.erase(id.find_last_not_of(" \t") + 1);
    if (!id.empty()) s.rules.push_back(id);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::string reason(rest.substr(close + 1));
  if (auto end = reason.find("*/"); end != std::string::npos) reason.erase(end);
  reason.erase(0, reason.find_first_not_of(" \t:-"));
  while (!reason.empty() && std::isspace(static_cast<unsigned char>(reason.back()))) reason.pop_back();
  s.reason = reason;
  return s;
}

std::vector<InlineSuppression> scan_inline_suppressions(CheckContext& ctx) {
  std::vector<InlineSuppression> out;
  for (const auto& file : ctx.tu.project_files()) {
    for (const auto& t : ctx.tokens(file)) {
      if (t.kind != Token::Kind::Comment || t.text.find("torchabi") == std::string::npos) continue;
      auto s = parse_suppression_comment(t.text);
      if (!s) continue;
      s->file = t.range.file;
      s->line = t.range.line;
      s->column = t.range.column;
      out.push_back(std::move(*s));
    }
  }
  return out;
}

bool covers(const InlineSuppression& s, const findings::Finding& f) {
  if (s.file != f.location.file || (f.location.line != s.line && f.location.line != s.line + 1)) return false;
  return std::any_of(s.rules.begin(), s.rules.end(),
                     [&](const std::string& r) { return ::fnmatch(r.c_str(), f.rule.c_str(), 0) == 0; });
}

void apply_inline_suppressions(findings::Report& report, std::vector<InlineSuppression> sups) {
  std::sort(sups.begin(), sups.end(), [](const auto& a, const auto& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  });
  sups.erase(std::unique(sups.begin(), sups.end(),
                         [](const auto& a, const auto& b) { return a.file == b.file && a.line == b.line && a.column == b.column; }),
             sups.end());
  std::vector<findings::Finding> kept;
  for (auto& f : report.findings) {
    const bool hit = std::any_of(sups.begin(), sups.end(), [&](const auto& s) { return covers(s, f); });
    if (hit) ++report.suppressed;
    else kept.push_back(std::move(f));
  }
  report.findings = std::move(kept);
  for (const auto& s : sups) {
    if (!s.reason.empty()) continue;
    findings::Finding f;
    f.rule = "source-suppression-without-reason";
    f.location.file = s.file;
    f.location.line = s.line;
    f.location.column = s.column;
    std::string ids;
    for (const auto& r : s.rules) ids += (ids.empty() ? "" : ", ") + r;
    f.location.symbol = ids;
    f.message = "suppression of " + (ids.empty() ? std::string("nothing") : ids) + " gives no reason";
    f.help = "Say why the finding is acceptable after the bracket: // torchabi: ignore[" + ids + "] <reason>";
    report.findings.push_back(std::move(f));
  }
}

}  // namespace torchabi::source
