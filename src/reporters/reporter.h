// Renders a Report for people (text, Markdown) or tools (JSON, SARIF).
// Reporters only read the findings model; they never analyse anything.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "findings/finding.h"

namespace torchabi::findings {
class RuleRegistry;
}

namespace torchabi::reporters {

enum class Format { Text, Json, Sarif, Markdown, Github };

std::optional<Format> parse_format(std::string_view name);

struct RenderOptions {
  bool color = false;    // ANSI colour: only when writing to a terminal
  bool quiet = false;    // findings only, no per-subject summary
  bool verbose = false;  // every subject fact
  // Text only: instead of every finding, each distinct help once with counts,
  // grouped by rule ("rule") or by subject ("subject"); empty: every finding.
  std::string group_by;
};

std::string render_text(const findings::Report&, const findings::RuleRegistry&, const RenderOptions&);
std::string render_json(const findings::Report&, const findings::RuleRegistry&);
std::string render_sarif(const findings::Report&, const findings::RuleRegistry&);
std::string render_markdown(const findings::Report&, const findings::RuleRegistry&);
// GitHub Actions workflow commands (::error file=...::message), one per finding.
std::string render_github(const findings::Report&, const findings::RuleRegistry&);
// The grouped view of --summary / --group-by (summary_reporter.cpp).
std::string render_grouped(const findings::Report&, const std::string& group_by);

std::string render(Format, const findings::Report&, const findings::RuleRegistry&, const RenderOptions&);

// "2 errors, 1 warning" — shared wording for the text and Markdown summaries.
std::string count_summary(const findings::Report&);

}  // namespace torchabi::reporters
