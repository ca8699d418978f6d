// `torchabi lint` minus the command line: analyses translation units in
// parallel child processes (tu_runner.h), reuses cached results
// (result_cache.h), and merges everything into one Report: findings from
// headers shared by several TUs appear once, inline suppressions are applied,
// and each TU gets a subject with its verdict and lowest TORCH_TARGET_VERSION.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzers/source/lint_env.h"
#include "analyzers/source/lint_progress.h"
#include "analyzers/source/tu_check.h"
#include "findings/finding.h"
#include "inputs/compile_db_args.h"

namespace torchabi::source {

struct LintOptions {
  unsigned jobs = 0;                       // 0: one per core
  std::string cache_dir;                   // empty: no cache
  std::vector<std::string> project_roots;  // empty: every non-system, non-torch file is the project's
  // TUs that start with the same #include lines under the same flags parse
  // them once (shared_preamble.h); the PCH is kept in `cache_dir`/preamble,
  // or only for this run without a cache.
  bool share_preambles = true;
  // Run in the parent while the first translation units are parsed (see
  // run_isolated); not run when every result comes from the cache.
  std::function<void()> while_parsing;
  LintProgress* progress = nullptr;  // not owned; null: silent
};

struct LintRun {
  findings::Report report;
  std::vector<std::string> warnings;  // one line each, for stderr (TUs that could not be analysed)
  std::vector<std::string> notes;     // one line each, for -v (what the shared preambles did)
  size_t analysed = 0;
  size_t from_cache = 0;
  size_t failed = 0;
};

struct AnalyzeOptions {
  // A child that exits right after keeps the AST: disposing of it takes
  // milliseconds (far more for torch/extension.h) and frees nothing the exit
  // would not.
  bool keep_ast_until_exit = false;
  // The paths looked for and not found (TuResult::files_missing): only the
  // results cache needs them.
  bool record_missing = true;
  // Parse with this shared preamble (shared_preamble.h); `preamble_note`, when
  // set, receives why it was not used.
  const PrecompiledPreamble* preamble = nullptr;
  std::string* preamble_note = nullptr;
};

// Parses and checks one TU in this process (what each child runs).
TuResult analyze_translation_unit(const inputs::ClangArgs& args, const LintEnv& env,
                                  const std::vector<std::string>& project_roots, AnalyzeOptions how = {});

LintRun run_lint(const std::vector<inputs::ClangArgs>& tus, const LintEnv& env, const LintOptions& options);

// Rewrites paths below the working directory as relative ones, the way the
// user typed them: in locations, subjects, messages and notes (fix-its keep
// absolute paths for tools). Idempotent, so reports can be merged and
// shortened again.
void shorten_paths(findings::Report& report);

// The directory the given files and build directories have in common: the
// default project root.
std::string common_ancestor(const std::vector<std::string>& paths);

}  // namespace torchabi::source
