// Renders the migration plan of `torchabi migrate`: Markdown sized for a
// pull-request comment, a self-contained HTML page (no external JS/CSS; the
// per-file chart is inline SVG), and JSON for tools. Separate from the
// findings reporters because a plan is not a list of findings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyzers/migration/plan.h"

namespace torchabi::reporters {

enum class PlanFormat { Markdown, Html, Json };

std::optional<PlanFormat> parse_plan_format(std::string_view name);  // md|markdown, html, json

std::string render_plan_markdown(const migration::MigrationPlan& plan);
std::string render_plan_html(const migration::MigrationPlan& plan);
std::string render_plan_json(const migration::MigrationPlan& plan);
std::string render_plan(PlanFormat format, const migration::MigrationPlan& plan);

// "12 non-stable uses in 3 files: 7 fixable, 1 fixable with --unsafe-fixes, 2 manual, 2 blocked"
std::string plan_headline(const migration::MigrationPlan& plan);

}  // namespace torchabi::reporters
