#include "reporters/reporter.h"

namespace torchabi::reporters {

std::optional<Format> parse_format(std::string_view n) {
  if (n == "text") return Format::Text;
  if (n == "json") return Format::Json;
  if (n == "sarif") return Format::Sarif;
  if (n == "md" || n == "markdown") return Format::Markdown;
  if (n == "github") return Format::Github;
  return std::nullopt;
}

std::string render(Format f, const findings::Report& r, const findings::RuleRegistry& reg, const RenderOptions& o) {
  switch (f) {
    case Format::Text: return render_text(r, reg, o);
    case Format::Json: return render_json(r, reg);
    case Format::Sarif: return render_sarif(r, reg);
    case Format::Markdown: return render_markdown(r, reg);
    case Format::Github: return render_github(r, reg);
  }
  return {};
}

std::string count_summary(const findings::Report& r) {
  size_t n[3] = {0, 0, 0};
  for (const auto& f : r.findings) ++n[int(f.severity.value_or(findings::Severity::Error))];
  auto plural = [](size_t k, const char* word) {
    return std::to_string(k) + " " + word + (k == 1 ? "" : "s");
  };
  std::string s = plural(n[2], "error") + ", " + plural(n[1], "warning") + ", " + plural(n[0], "note");
  if (r.suppressed) s += ", " + std::to_string(r.suppressed) + " suppressed";
  if (r.baselined) s += ", " + std::to_string(r.baselined) + " in baseline";
  return s;
}

}  // namespace torchabi::reporters
