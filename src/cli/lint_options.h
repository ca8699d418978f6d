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
  // Where the project's Python (fakes, autograd, op definitions) is read, when
  // not the project roots: `check DIR` reads DIR's, never the enclosing
  // repository's (a project vendored in a monorepo, a fixture in a test tree).
  std::vector<std::string> python_roots;
  std::string cache_dir;
  bool no_cache = false;
  bool no_preamble = false;  // --no-preamble: every TU parses its own headers (shared_preamble.h)
  std::string torch_include;
  bool no_torch_import = false;
  std::vector<std::string> also_define;  // --also-define NAME[=VALUE]: extra configurations
  bool verbose = false;                  // the report's -v: progress lines also when stderr is not a terminal
  std::string config;                    // the report's --config: where the project's stated torch is read
};

void add_lint_options(CLI::App& cmd, LintOptionsArgs& args);

struct LintOutcome {
  findings::Report report;            // policy not yet applied
  std::vector<std::string> warnings;  // one line each, for stderr
  size_t analysed = 0;
  size_t from_cache = 0;
};

// Throws InputError when there is nothing to analyse or the database is broken.
// With `registrations`, the op registrations of all TUs are collected and
// checked too (schema-, boxed-, backend-, torchbind- rules): lint and check
// want them; migrate plans only the move to stable APIs. With
// `fold_same_method`, calls such as x.dim() that need no change once x is a
// torch::stable::Tensor are folded into a note on the tensor type's finding
// (same_method_fold.h): lint and check show them that way; migrate counts
// each use.
LintOutcome lint_sources(const source::LintRequest& request, const LintOptionsArgs& args, bool registrations = false,
                         bool fold_same_method = false);

// Where results are cached for this run (also with --no-cache, which only
// stops translation-unit results from being reused; imports stay cached).
std::string lint_cache_dir(const LintOptionsArgs& args, const std::string& build_dir);

}  // namespace torchabi::cli
