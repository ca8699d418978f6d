// Options and the lint run shared by `torchabi lint` and `torchabi check`.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analyzers/source/lint_targets.h"
#include "findings/finding.h"

namespace torchabi::cli {

struct LintOptionsArgs {
  unsigned jobs = 0;
  std::vector<std::string> project_roots;
  std::string cache_dir;
  bool no_cache = false;
  std::string torch_include;
  bool no_torch_import = false;
};

void add_lint_options(CLI::App& cmd, LintOptionsArgs& args);

struct LintOutcome {
  findings::Report report;            // policy not yet applied
  std::vector<std::string> warnings;  // one line each, for stderr
  size_t analysed = 0;
  size_t from_cache = 0;
};

// Throws InputError when there is nothing to analyse or the database is broken.
LintOutcome lint_sources(const source::LintRequest& request, const LintOptionsArgs& args);

// Where results are cached for this run (also with --no-cache, which only
// stops translation-unit results from being reused; imports stay cached).
std::string lint_cache_dir(const LintOptionsArgs& args, const std::string& build_dir);

}  // namespace torchabi::cli
