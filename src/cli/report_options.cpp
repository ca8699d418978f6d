#include "cli/report_options.h"

#include "common/report_output.h"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/input_error.h"
#include "findings/config.h"
#include "findings/policy.h"
#include "findings/rule_registry.h"
#include "reporters/path_bytes.h"
#include "reporters/reporter.h"

namespace torchabi::cli {

void add_report_options(CLI::App& cmd, ReportOptions& o) {
  cmd.add_option("--format", o.format, "Output format: text, json, sarif, md, github (workflow-command annotations)")->group("Report");
  cmd.add_option("-o,--output", o.output, "Write the report to FILE (atomically) instead of stdout")->group("Report");
  cmd.add_option("--baseline", o.baseline, "Accept the findings recorded in FILE; report only new ones")->group("Report");
  cmd.add_option("--write-baseline", o.write_baseline, "Record today's findings in FILE for --baseline")->group("Report");
  add_common_report_options(cmd, o);
  cmd.add_flag("--summary", o.summary, "Text: counts per rule, each distinct help once, instead of every finding")
      ->group("Report");
  cmd.add_option("--group-by", o.group_by, "Text: like --summary, grouped by rule or subject")->group("Report");
}

void add_common_report_options(CLI::App& cmd, ReportOptions& o) {
  cmd.add_option("--fail-on", o.fail_on, "Exit 1 when a finding is at or above: error (default), warning, note")->group("Report");
  cmd.add_option("--config", o.config, "Config file (.torchabi.yaml or pyproject.toml); default: found upward from the inputs")->group("Report");
  cmd.add_option("--color", o.color, "auto, always or never")->group("Report");
  cmd.add_flag("-q,--quiet", o.quiet, "Print findings only, no per-input summary")->group("Report");
  cmd.add_flag("-v,--verbose", o.verbose, "Print every fact about each input")->group("Report");
}

void validate_report_options(const ReportOptions& o) {
  if (!reporters::parse_format(o.format))
    throw InputError("--format", "unknown format '" + o.format + "' (text, json, sarif, md, github)");
  if (!o.group_by.empty() && o.group_by != "rule" && o.group_by != "subject")
    throw InputError("--group-by", "expected rule or subject, not '" + o.group_by + "'");
  if ((o.summary || !o.group_by.empty()) && o.format != "text")
    throw InputError(o.summary ? "--summary" : "--group-by", "groups the text output; it does not go with --format " + o.format);
  if (!o.fail_on.empty() && !findings::parse_severity(o.fail_on))
    throw InputError("--fail-on", "unknown severity '" + o.fail_on + "' (error, warning, note)");
  if (o.color != "auto" && o.color != "always" && o.color != "never")
    throw InputError("--color", "expected auto, always or never, not '" + o.color + "'");
}

int finish_report(findings::Report& report, const ReportOptions& o, const std::vector<std::string>& inputs,
                  bool partial_ok) {
  validate_report_options(o);
  findings::Config config = o.config.empty() ? findings::Config::discover(inputs) : findings::Config::load_file(o.config);
  const auto& rules = findings::RuleRegistry::current();

  std::optional<findings::Baseline> baseline;
  std::string baseline_path = !o.baseline.empty() ? o.baseline : config.baseline.value_or("");
  if (!baseline_path.empty()) baseline = findings::Baseline::load(baseline_path);

  // The baseline records everything the analyzers found, before suppressions.
  if (!o.write_baseline.empty()) {
    findings::Report all = report;
    findings::apply_policy(all, findings::Config{}, rules, nullptr);
    write_file_atomically(o.write_baseline, findings::Baseline::serialize(all));
  }
  findings::apply_policy(report, config, rules, baseline ? &*baseline : nullptr);

  reporters::RenderOptions ro;
  ro.quiet = o.quiet;
  ro.verbose = o.verbose;
  ro.group_by = !o.group_by.empty() ? o.group_by : o.summary ? "rule" : "";
  ro.color = o.color == "always" ||
             (o.color == "auto" && o.output.empty() && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
  const auto format = *reporters::parse_format(o.format);
  const std::string text = reporters::render(format, report, rules, ro);
  write_output(o.output, text, inputs);

  if (partial_ok) {
    for (const auto& f : report.failures)
      std::cerr << "torchabi: note: not analysed: " << reporters::escape_for_text(f.line()) << " (the other inputs were)\n";
  } else {
    // One line each, whatever bytes a file name holds (reporters/path_bytes.h).
    for (const auto& f : report.failures) std::cerr << "torchabi: error: " << reporters::escape_for_text(f.line()) << "\n";
    if (!report.failures.empty()) return kExitInputError;
  }

  findings::Severity threshold = findings::Severity::Error;
  if (!o.fail_on.empty()) threshold = *findings::parse_severity(o.fail_on);
  else if (config.fail_on) threshold = *config.fail_on;
  auto worst = findings::worst_severity(report);
  return worst && *worst >= threshold ? kExitFindings : kExitClean;
}

}  // namespace torchabi::cli
