// Options shared by every subcommand that produces a findings report, and the
// common tail of such a command: policy, rendering, writing, exit code.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "findings/finding.h"

namespace torchabi::cli {

struct ReportOptions {
  std::string format = "text";
  std::string output;          // -o FILE; empty: stdout
  std::string fail_on;         // error|warning|note; empty: config, else error
  std::string config;          // --config FILE
  std::string baseline;        // --baseline FILE
  std::string write_baseline;  // --write-baseline FILE
  std::string color = "auto";
  bool quiet = false;
  bool verbose = false;
  bool summary = false;   // --summary: --group-by rule
  std::string group_by;   // --group-by rule|subject (text only)
};

void add_report_options(CLI::App& cmd, ReportOptions& opts);
// The options of add_report_options that do not depend on the report's form
// (--fail-on, --config, --color, -q, -v): for commands with their own
// --format/-o/--baseline (migrate).
void add_common_report_options(CLI::App& cmd, ReportOptions& opts);

// Exit codes, the same for every subcommand.
enum ExitCode { kExitClean = 0, kExitFindings = 1, kExitInputError = 2 };

// Applies config/suppressions/baseline, renders, writes (atomically with -o),
// prints input failures to stderr, and returns the exit code. `inputs` are the
// paths the user named (used to discover the config file). With
// `partial_ok` (some inputs were analysed), input failures are printed as
// notes and do not make the exit code 2: exit 2 means nothing was analysed.
int finish_report(findings::Report& report, const ReportOptions& opts, const std::vector<std::string>& inputs,
                  bool partial_ok = false);

// Validates --format/--fail-on/--color before any work is done, so a typo
// fails fast with exit 2 instead of after a long analysis.
void validate_report_options(const ReportOptions& opts);

}  // namespace torchabi::cli
