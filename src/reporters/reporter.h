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

enum class Format { Text, Json, Sarif, Markdown };

std::optional<Format> parse_format(std::string_view name);

struct RenderOptions {
  bool color = false;    // ANSI colour: only when writing to a terminal
  bool quiet = false;    // findings only, no per-subject summary
  bool verbose = false;  // every subject fact
};

std::string render_text(const findings::Report&, const findings::RuleRegistry&, const RenderOptions&);
std::string render_json(const findings::Report&, const findings::RuleRegistry&);
std::string render_sarif(const findings::Report&, const findings::RuleRegistry&);
std::string render_markdown(const findings::Report&, const findings::RuleRegistry&);

std::string render(Format, const findings::Report&, const findings::RuleRegistry&, const RenderOptions&);

// "2 errors, 1 warning" — shared wording for the text and Markdown summaries.
std::string count_summary(const findings::Report&);

}  // namespace torchabi::reporters
