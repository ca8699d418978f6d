#include "reporters/migration_reporter.h"

namespace torchabi::reporters {

std::optional<PlanFormat> parse_plan_format(std::string_view name) {
  if (name == "md" || name == "markdown") return PlanFormat::Markdown;
  if (name == "html") return PlanFormat::Html;
  if (name == "json") return PlanFormat::Json;
  return std::nullopt;
}

std::string render_plan(PlanFormat format, const migration::MigrationPlan& plan) {
  switch (format) {
    case PlanFormat::Markdown: return render_plan_markdown(plan);
    case PlanFormat::Html: return render_plan_html(plan);
    case PlanFormat::Json: return render_plan_json(plan);
  }
  return render_plan_markdown(plan);
}

std::string plan_headline(const migration::MigrationPlan& p) {
  const auto& s = p.summary;
  std::string out = std::to_string(s.total()) + " non-stable use" + (s.total() == 1 ? "" : "s") + " in " +
                    std::to_string(p.files.size()) + " file" + (p.files.size() == 1 ? "" : "s");
  if (s.total() == 0) return out;
  out += ": " + std::to_string(s.fixable) + " fixable";
  if (s.fixable_unsafe) out += ", " + std::to_string(s.fixable_unsafe) + " fixable with --unsafe-fixes";
  out += ", " + std::to_string(s.manual) + " manual, " + std::to_string(s.blocked) + " blocked";
  if (s.unchanged)
    out += " (and " + std::to_string(s.unchanged) + " use" + (s.unchanged == 1 ? "" : "s") +
           " that need no edit once their types are stable)";
  return out;
}

}  // namespace torchabi::reporters
