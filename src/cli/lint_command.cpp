// `torchabi lint [-p BUILD_DIR] [FILE...] [-- COMPILER_ARGS...]`: checks an
// extension's C++/CUDA sources against the LibTorch stable ABI with libclang.
#include <filesystem>
#include <iostream>
#include <memory>

#include "analyzers/schema/registrations/lint_integration.h"
#include "analyzers/source/auto_import.h"
#include "analyzers/source/configurations.h"
#include "analyzers/source/lint_engine.h"
#include "analyzers/source/libclang_warmup.h"
#include "analyzers/source/lint_targets.h"
#include "analyzers/source/result_cache.h"
#include "analyzers/source/same_method_fold.h"
#include "analyzers/source/rules_import.h"
#include "analyzers/source/tu_runner.h"
#include "cli/commands.h"
#include "cli/lint_options.h"
#include "cli/progress_line.h"
#include "cli/report_options.h"
#include "cli/source_inputs.h"
#include "cli/torch_promise.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"
#include "reporters/path_bytes.h"  // one_line: a name with a newline stays one line

namespace torchabi::cli {

namespace fs = std::filesystem;

namespace {

// "8G", "512M", "64K" or a number of bytes.
unsigned long long parse_memory_size(const std::string& text) {
  size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(text, &used);
  } catch (const std::exception&) {
    throw CLI::ValidationError("--tu-memory", "'" + text + "' is not a size (8G, 512M, bytes)");
  }
  const std::string unit = text.substr(used);
  const int shift = unit.empty() ? 0 : unit == "K" || unit == "k" ? 10 : unit == "M" || unit == "m" ? 20
                                    : unit == "G" || unit == "g" ? 30 : -1;
  if (shift < 0 || (shift && n > (~0ull >> shift)))
    throw CLI::ValidationError("--tu-memory", "'" + text + "' is not a size (8G, 512M, bytes)");
  return n << shift;
}

}  // namespace

void add_lint_options(CLI::App& cmd, LintOptionsArgs& a) {
  cmd.add_option("-j,--jobs", a.jobs, "Translation units parsed in parallel (default: one per core)")->group("Lint");
  cmd.add_option("--project-root", a.project_roots,
                 "Directory whose headers are the project's (default: the directory the sources and build "
                 "directories share; repeat the option for several)")
      ->allow_extra_args(false)  // one directory per option: a FILE after it stays a FILE
      ->group("Lint");
  cmd.add_option("--cache-dir", a.cache_dir,
                 "Where results are cached (default: BUILD_DIR/.torchabi-cache, else $XDG_CACHE_HOME/torchabi)")
      ->group("Lint");
  cmd.add_flag("--no-cache", a.no_cache, "Analyse every translation unit again (ignore and do not store cached results)")->group("Lint");
  cmd.add_flag("--no-preamble", a.no_preamble,
               "Parse every translation unit's headers itself (by default the #include lines several units start "
               "with are parsed once into a cached precompiled header)")
      ->group("Lint");
  cmd.add_option("--torch-include", a.torch_include,
                 "A torch include directory whose stable headers define the API versions (default: found in the "
                 "compile flags)")
      ->group("Lint");
  cmd.add_flag("--no-torch-import", a.no_torch_import,
               "Use only torchabi's rules for API versions, not the stable headers found in the flags")
      ->group("Lint");
  // Bounds per translation unit (source/tu_runner.h): set when parsed, so
  // that every run of the command (lint, registrations, migrate's compile
  // check) has them.
  cmd.add_option_function<unsigned>(
         "--tu-timeout",
         [](unsigned seconds) {
           auto l = source::isolated_limits();
           l.seconds = seconds;
           source::set_isolated_limits(l);
         },
         "Seconds one translation unit may take; past it, it is reported as not analysed (default 600; 0: no limit)")
      ->group("Lint");
  cmd.add_option_function<std::string>(
         "--tu-memory",
         [](const std::string& text) {
           auto l = source::isolated_limits();
           l.memory_bytes = parse_memory_size(text);
           source::set_isolated_limits(l);
         },
         "Address space one translation unit may use, as 8G, 512M or bytes; past it, it is reported as not "
         "analysed (default 8G; 0: no limit)")
      ->group("Lint");
  cmd.add_option("--also-define", a.also_define,
                 "Lint every file once more with -DNAME[=VALUE] (repeat for more configurations) and merge the "
                 "findings: the #if branches NAME enables are checked with the AST")
      ->allow_extra_args(false)
      ->group("Lint");
}

std::string lint_cache_dir(const LintOptionsArgs& a, const std::string& build_dir) {
  if (!a.cache_dir.empty()) return fs::absolute(a.cache_dir).string();
  if (!build_dir.empty()) return (fs::absolute(build_dir) / ".torchabi-cache" / "lint").string();
  return source::default_cache_dir();
}

LintOutcome lint_sources(const source::LintRequest& request, const LintOptionsArgs& a, bool registrations,
                         bool fold_same_method) {
  LintOutcome out;
  source::LintTargets targets = source::collect_lint_targets(request);
  for (const auto& n : targets.notes) out.warnings.push_back(n);
  out.report.command = "lint";
  if (targets.tus.empty()) {
    out.report.failures = targets.skipped;
    return out;
  }
  const std::string cache_dir = lint_cache_dir(a, request.build_dir);
  source::LibclangWarmup libclang_warmup;  // while the rules are read
  source::LintEnv env = source::LintEnv::load(inputs::RulesSource::current(), inputs::ApiCatalog::current(), cache_dir);
  std::vector<std::string> torch_dirs;
  if (!a.torch_include.empty()) torch_dirs.push_back(a.torch_include);
  else if (!a.no_torch_import) torch_dirs = source::torch_include_dirs(targets.tus);
  if (!a.torch_include.empty() && !source::has_stable_headers(a.torch_include))
    throw InputError(a.torch_include, "no PyTorch stable headers here (expected torch/csrc/stable/)");
  for (auto& p : source::import_torch_headers(env, torch_dirs, cache_dir)) out.warnings.push_back(p);
  {
    std::vector<std::string> where = request.files;
    where.push_back(request.build_dir.empty() ? request.cwd : request.build_dir);
    env.set_promise(find_torch_promise(a.config, where));
  }

  ProgressLine progress(stderr, ProgressLine::mode_for(stderr, a.verbose), request.cwd);
  source::LintOptions options;
  options.progress = &progress;
  options.jobs = a.jobs;
  options.cache_dir = a.no_cache ? std::string() : cache_dir;
  options.share_preambles = !a.no_preamble;
  for (const auto& r : a.project_roots) options.project_roots.push_back(fs::absolute(r).lexically_normal().string());
  if (options.project_roots.empty()) options.project_roots = targets.default_roots;
  std::vector<std::string> python_roots;
  for (const auto& r : a.python_roots) python_roots.push_back(fs::absolute(r).lexically_normal().string());
  if (python_roots.empty()) python_roots = options.project_roots;
  schema::RegistrationInputs registration_inputs;
  if (registrations) {
    schema::register_registration_extraction();
    options.while_parsing = [&] { registration_inputs.prepare(python_roots); };
  }
  source::LintRun run = source::run_lint(targets.tus, env, options);
  if (a.verbose)
    for (const auto& n : run.notes) out.warnings.push_back(n);
  options.while_parsing = nullptr;  // the extra configurations below need nothing more
  for (const auto& define : a.also_define) {
    source::LintRun extra = source::run_lint(source::with_define(targets.tus, define), env, options);
    if (a.verbose)
      for (const auto& n : extra.notes) out.warnings.push_back(n + " [-D" + define + "]");
    source::merge_configuration(run.report, std::move(extra.report), "-D" + define);
  }
  source::drop_inactive_duplicates(run.report);
  out.report = std::move(run.report);
  for (auto& w : run.warnings) out.warnings.push_back(std::move(w));
  out.from_cache = run.from_cache;
  out.analysed = run.analysed;
  // Cross-file registration checks conclude from what is absent: only a run
  // over the whole compile database, when it has every source of the build,
  // sees the whole project.
  const bool whole_project = request.files.empty() && !targets.compile_db.empty() && !targets.sources_left_out;
  if (registrations)
    schema::add_registration_checks(out.report, python_roots, whole_project, &registration_inputs);
  if (fold_same_method) source::fold_same_method_calls(out.report, env.replacements);

  if (out.analysed == 0) {
    out.report.failures.insert(out.report.failures.end(), targets.skipped.begin(), targets.skipped.end());
  } else {
    for (const auto& s : targets.skipped) {
      findings::Finding n;
      n.rule = "source-tu-not-analysed";
      n.location.file = s.input;
      n.message = "not analysed: " + s.message;
      n.help = "Make it analysable as the message says (the file must exist and be in the compile database, or "
               "have its flags after --); the other translation units were analysed.";
      out.report.findings.push_back(std::move(n));
      out.warnings.push_back(s.input + ": not analysed: " + s.message);
    }
  }
  return out;
}

namespace {

struct LintArgs {
  SourceInputs sources;
  LintOptionsArgs lint;
  ReportOptions report;
};

int run(LintArgs& a, CLI::App& cmd) {
  validate_report_options(a.report);
  reject_unknown_options(cmd, "lint");
  const source::LintRequest req = a.sources.request();
  LintOutcome out = lint_sources(req, a.lint, /*registrations=*/true, /*fold_same_method=*/true);
  for (const auto& w : out.warnings) std::cerr << "torchabi: note: " << reporters::one_line(w) << "\n";
  if (a.report.verbose)
    std::cerr << "torchabi: note: " << out.analysed << " translation units analysed, " << out.from_cache
              << " of them from the cache\n";
  return finish_report(out.report, a.report, a.sources.report_inputs(req));
}

}  // namespace

void add_lint_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "lint", "Check C++/CUDA sources against the LibTorch stable ABI (libclang; compile_commands.json or flags after --)");
  auto args = std::make_shared<LintArgs>();
  add_source_inputs(*cmd, std::shared_ptr<SourceInputs>(args, &args->sources),
                    "Sources or headers to lint (default: every file of the compile database)");
  add_lint_options(*cmd, args->lint);
  add_report_options(*cmd, args->report);
  cmd->footer("Compiler arguments after -- are used for the FILEs (added to their compile database flags with -p).");
  cmd->callback([&d, args, cmd] {
    args->sources.finish_parse(*cmd);
    args->lint.verbose = args->report.verbose;
    args->lint.config = args->report.config;
    d.run = [args, cmd] { return run(*args, *cmd); };
  });
}

}  // namespace torchabi::cli
