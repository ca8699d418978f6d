// `torchabi migrate [-p BUILD_DIR] [FILE...] [-- COMPILER_ARGS...]`: the plan
// for porting an extension to the LibTorch stable ABI (Markdown, HTML or
// JSON), built from lint's findings; `--fix` applies the mechanical rewrites
// in place and `--fix --dry-run` prints them as a unified diff instead.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "analyzers/migration/alternatives.h"
#include "analyzers/migration/blockers.h"
#include "analyzers/migration/call_rewrite_check.h"
#include "analyzers/migration/compile_check.h"
#include "analyzers/migration/coupling_facts.h"
#include "analyzers/migration/migration_rewrites.h"
#include "analyzers/migration/fix_applier.h"
#include "analyzers/migration/fix_session.h"
#include "analyzers/migration/inactive_regions.h"
#include "analyzers/migration/inactive_uses.h"
#include "analyzers/migration/include_graph.h"
#include "analyzers/migration/legacy_type_check.h"
#include "analyzers/migration/options_factory_check.h"
#include "analyzers/migration/lint_adapter.h"
#include "analyzers/migration/plan_builder.h"
#include "analyzers/migration/port_verify/port_verify.h"
#include "analyzers/migration/progress.h"
#include "analyzers/migration/pybind_port_check.h"
#include "analyzers/migration/registration_scan.h"
#include "analyzers/migration/stable_ops/stable_ops.h"
#include "analyzers/migration/stable_ops_check.h"
#include "analyzers/migration/target_choice.h"
#include "analyzers/migration/unified_diff.h"
#include "analyzers/source/lint_targets.h"
#include "analyzers/source/replacements.h"
#include "analyzers/source/replacements_cache.h"
#include "analyzers/source/tu_check.h"
#include "cli/audit_target.h"
#include "cli/commands.h"
#include "cli/lint_options.h"
#include "cli/port_verification.h"
#include "cli/report_options.h"
#include "cli/source_inputs.h"
#include "common/report_output.h"
#include "common/atomic_file.h"
#include "common/input_error.h"
#include "inputs/project/project_copy.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"
#include "reporters/migration_reporter.h"
#include "reporters/path_bytes.h"  // one_line: a name with a newline stays one line
#include "reporters/port_verify_reporter.h"

namespace torchabi::cli {

namespace fs = std::filesystem;
using namespace torchabi::migration;

namespace {

struct MigrateArgs {
  SourceInputs sources;
  std::string format = "md";
  std::string output;
  bool fix = false;
  bool dry_run = false;
  bool unsafe_fixes = false;
  bool verify = false;         // --verify: build the tree before and after the rewrites in a real torch, compare
  std::string verify_report;   // --verify-report FILE: the verification as JSON
  VerifyOptions verify_options;
  std::string target_version;  // --target-version: a ceiling for the plan and for --fix
  std::string baseline;        // --baseline FILE: a previous plan's JSON to compare the progress with
  std::string write_baseline;  // --write-baseline FILE: this plan's JSON, for the next run's --baseline
  LintOptionsArgs lint;
  ReportOptions shared;  // --fail-on, --config, --color, -q, -v: the options every analysing command takes
};

void validate(const MigrateArgs& a, CLI::App& cmd) {
  reject_unknown_options(cmd, "migrate");
  ReportOptions shared = a.shared;
  shared.format = "text";  // migrate's own --format is checked below
  validate_report_options(shared);
  if (!reporters::parse_plan_format(a.format))
    throw InputError("--format", "unknown format '" + a.format + "' (md, html, json)");
  if (a.dry_run && !a.fix) throw InputError("--dry-run", "only makes sense with --fix");
  if (a.unsafe_fixes && !a.fix) throw InputError("--unsafe-fixes", "only makes sense with --fix");
  if (a.fix && !a.dry_run && !a.output.empty())
    throw InputError("-o", "--fix rewrites the sources in place; -o takes the plan or the --dry-run diff");
  if (a.verify && !a.fix) throw InputError("--verify", "only makes sense with --fix (verify-port compares two trees)");
  if (a.verify) validate_verify_options(a.verify_options);
  if (a.fix && !a.baseline.empty()) throw InputError("--baseline", "compares plans; it does not go with --fix");
  if (a.fix && !a.write_baseline.empty()) throw InputError("--write-baseline", "writes a plan; it does not go with --fix");
}

bool under(const std::string& path, const std::vector<std::string>& roots) {
  for (const auto& r : roots) {
    const std::string root = normal_path(r);
    if (path == root || path.starts_with(root.back() == '/' ? root : root + "/")) return true;
  }
  return false;
}

// The project's include graph, from the translation units lint analysed.
IncludeGraph project_includes(const source::LintTargets& targets, const std::vector<std::string>& roots,
                              const std::vector<ApiUse>& uses) {
  IncludeScanOptions opts;
  std::set<std::string> dirs;
  std::vector<std::string> starts;
  for (const auto& tu : targets.tus) {
    starts.push_back(tu.file);
    for (const auto& d : tu.include_dirs)
      if (dirs.insert(d).second && under(normal_path(d), roots)) opts.include_dirs.push_back(d);
  }
  for (const auto& u : uses) starts.push_back(u.location.file);
  opts.is_project = [roots](const std::string& p) { return under(p, roots); };
  return scan_include_graph(starts, opts);
}

// The registration and pybind blocks of every project file the plan knows.
std::map<std::string, std::vector<CodeBlock>> code_blocks(const IncludeGraph& includes, const std::vector<ApiUse>& uses) {
  std::set<std::string> files;
  for (const auto& [file, _] : includes) files.insert(file);
  for (const auto& u : uses) files.insert(normal_path(u.location.file));
  std::map<std::string, std::vector<CodeBlock>> out;
  for (const auto& f : files) {
    try {
      auto blocks = scan_code_blocks(read_source_file(f));
      if (!blocks.empty()) out.emplace(f, std::move(blocks));
    } catch (const InputError&) {
      // Unreadable now: lint reported what it could not read.
    }
  }
  return out;
}

int print_fix_summary(const CheckedFixes& checked, bool unsafe_enabled, bool dry_run) {
  const RewritePlan& plan = checked.plan;
  size_t needs_flag = 0;
  for (const auto& r : plan.rejected) {
    if (!unsafe_enabled && r.fix.safety == findings::FixSafety::Unsafe &&
        r.reason.find("--unsafe-fixes") != std::string::npos) {
      ++needs_flag;
      continue;
    }
    std::cerr << "torchabi: note: " << reporters::escape_for_text(shown_path(r.fix.file)) << ": not fixed ("
              << (r.fix.description.empty() ? "'" + r.fix.replacement + "'" : r.fix.description) << "): " << r.reason
              << "\n";
  }
  for (const auto& n : checked.notes) std::cerr << "torchabi: note: " << reporters::one_line(n) << "\n";
  const size_t n = plan.applied_count();
  std::cerr << "torchabi: " << (dry_run ? "would make " : "made ") << n << " rewrite" << (n == 1 ? "" : "s") << " in "
            << plan.files.size() << " file" << (plan.files.size() == 1 ? "" : "s");
  if (needs_flag) std::cerr << "; " << needs_flag << " more with --unsafe-fixes";
  std::cerr << "\n";
  return kExitClean;
}

// The project root every rewritten file and analysed source lies under.
std::string verify_root(const std::vector<std::string>& roots, const RewritePlan& plan) {
  for (const auto& r : roots) {
    bool all = true;
    for (const auto& f : plan.files) all = all && under(normal_path(f.path), {r});
    if (all) return normal_path(r);
  }
  throw InputError("--verify", "the rewritten files are not under one project root (give it with --project-root)");
}

// --verify: the project as it is and as the rewrites leave it, built and
// compared in a real torch (port_verify.h). The port is a copy with the
// rewritten files in it, so a --dry-run can be verified too.
int verify_fixes(const MigrateArgs& a, const CheckedFixes& checked, const source::LintTargets& targets,
                 const std::vector<std::string>& roots, const TorchVersion& target) {
  const std::string root = verify_root(roots, checked.plan);
  inputs::ScratchDir scratch("migrate-port");
  if (!scratch.ok()) throw InputError("--verify", "no temporary directory for the ported copy");
  const fs::path port = scratch.path();
  try {
    inputs::copy_project_tree(root, port.string(), {inputs::kMaxScriptCopyBytes, ""});
  } catch (const fs::filesystem_error& e) {
    throw InputError(root, std::string("cannot be copied for --verify: ") + e.what());
  }
  for (const auto& f : checked.plan.files) {
    const fs::path to = port / fs::path(normal_path(f.path)).lexically_relative(root);
    fs::create_directories(to.parent_path());
    write_file_atomically(to.string(), f.after);
  }
  std::vector<std::string> sources;
  for (const auto& tu : targets.tus)
    if (under(normal_path(tu.file), {root})) sources.push_back(fs::path(normal_path(tu.file)).lexically_relative(root).string());
  VerifyRequest req;
  req.original_root = root;
  req.port_root = port.string();
  req.extensions = extensions_to_verify(root, port.string(), sources);
  req.target_hex = target.hex();
  req.python = a.verify_options.python;
  req.inputs_file = a.verify_options.inputs.empty() ? "" : fs::absolute(a.verify_options.inputs).string();
  req.timeout_seconds = a.verify_options.timeout;
  const VerifyRun run = verify_port(req);
  std::cerr << reporters::render_verify_text(run);
  if (!a.verify_report.empty()) write_file_atomically(a.verify_report, reporters::render_verify_json(run));
  return run.verified() ? kExitClean : kExitFindings;
}

int run(MigrateArgs& a, CLI::App& cmd) {
  validate(a, cmd);
  const inputs::ApiCatalog& catalog = inputs::ApiCatalog::current();
  // Read before the (long) analysis, so that a bad value fails at once.
  const std::optional<TorchVersion> ceiling =
      a.target_version.empty() ? std::nullopt : audit_target_version(a.target_version, "", {}, catalog);
  const auto& rules = inputs::RulesSource::current();
  const BlockerCatalog blockers = BlockerCatalog::load(rules);
  const MigrationRewrites rewrites = MigrationRewrites::load(rules);
  const source::LintRequest req = a.sources.request();
  const source::Replacements replacements =
      source::load_replacements_cached(rules, lint_cache_dir(a.lint, req.build_dir));

  // The checks migrate adds to lint: inactive #if ranges (so --fix can prove
  // it never edits them), the TORCH_BOX rewrite of registrations and the
  // call rewrites lint's fix-its do not cover.
  register_inactive_region_check();
  register_boxed_registration_check(rewrites.boxed);
  register_call_rewrite_check(rewrites);
  register_coupling_check();
  // ATen calls with no torch::stable function: a helper of the project's stable_ops.h.
  const auto aten_ops = std::make_shared<const AtenFallback>(AtenFallback::load(rules));
  const auto stable_ops_gen = std::make_shared<const stable_ops::Generator>(stable_ops::Generator::load(rules));
  register_stable_ops_check(stable_ops_gen, aten_ops);
  register_pybind_port_check();
  register_legacy_type_check(LegacyTypeRules::load(rules));
  register_options_factory_check(rewrites.options_factories);
  // Read before the (long) analysis, so that a bad baseline fails at once.
  std::optional<Progress> baseline;
  if (!a.baseline.empty()) baseline = read_progress_file(a.baseline);
  LintOutcome out = lint_sources(req, a.lint);
  if (!a.shared.quiet)
    for (const auto& w : out.warnings) std::cerr << "torchabi: note: " << reporters::one_line(w) << "\n";
  if (out.analysed == 0) {
    for (const auto& f : out.report.failures) std::cerr << "torchabi: error: " << f.line() << "\n";
    if (out.report.failures.empty()) std::cerr << "torchabi: error: nothing could be analysed\n";
    return kExitInputError;
  }
  const auto inactive = take_inactive_regions(out.report);
  CouplingFacts coupling = take_coupling_facts(out.report);
  std::vector<ApiUse> uses = uses_from_lint(out.report, replacements, blockers, rewrites, aten_ops.get());

  const source::LintTargets targets = source::collect_lint_targets(req);
  std::vector<std::string> roots;
  for (const auto& r : a.lint.project_roots) roots.push_back(fs::absolute(r).lexically_normal().string());
  if (roots.empty()) roots = targets.default_roots;
  IncludeGraph includes = project_includes(targets, roots, uses);
  const Alternatives alternatives = Alternatives::load(rules);
  apply_alternatives(uses, alternatives);
  // Code of other configurations: manual, and never counted by settle_includes.
  std::vector<ApiUse> inactive_uses = uses_in_inactive_branches(out.report, replacements, &blockers, &rewrites);
  apply_alternatives(inactive_uses, alternatives);

  // What --fix writes builds at the plan's lowest target (or at the
  // --target-version ceiling): older spellings where the newer one would
  // raise it, no rewrite where nothing fits. The plan counts the same.
  std::vector<ApiUse> all = uses;
  all.insert(all.end(), inactive_uses.begin(), inactive_uses.end());
  const TorchVersion target = ceiling ? *ceiling : choose_target(all, catalog.baseline()).target;
  const std::vector<std::string> withheld = fit_fixes_to_target(uses, target);
  if (!withheld.empty()) settle_dependent_fixes(uses, rewrites);
  settle_includes(uses, includes);
  for (auto& u : inactive_uses) uses.push_back(std::move(u));

  if (a.fix) {
    for (const auto& w : withheld) std::cerr << "torchabi: note: " << reporters::one_line(w) << "\n";
    FixSessionInputs in;
    in.uses = uses;
    in.includes = includes;
    in.include_unsafe = a.unsafe_fixes;
    in.stable_ops = stable_ops_gen;
    for (const auto& [file, ranges] : inactive)
      for (const auto& r : ranges) in.protected_ranges[file].push_back({r, "an inactive #if branch"});
    const CheckedFixes checked = plan_checked_fixes(std::move(in), targets.tus, a.lint.jobs);
    if (a.dry_run) {
      std::string diff;
      for (const auto& f : checked.plan.files)
        diff += unified_diff(f.before, f.after, reporters::escape_for_text(shown_path(f.path)));  // one header line
      write_output(a.output, diff, a.sources.report_inputs(req));
      print_fix_summary(checked, a.unsafe_fixes, true);
      const int verified = a.verify ? verify_fixes(a, checked, targets, roots, target) : kExitClean;
      return diff.empty() && verified == kExitClean ? kExitClean : kExitFindings;
    }
    write_rewrites(checked.plan);
    print_fix_summary(checked, a.unsafe_fixes, false);
    return a.verify ? verify_fixes(a, checked, targets, roots, target) : kExitClean;
  }

  PlanInputs in;
  in.inputs = a.sources.report_inputs(req);
  in.uses = std::move(uses);
  in.files_analysed = includes.size();
  in.blocks = code_blocks(includes, in.uses);
  in.coupling = std::move(coupling);
  in.includes = std::move(includes);
  in.baseline = catalog.baseline();
  in.ceiling = ceiling;
  in.notes = out.warnings;
  for (const auto& f : out.report.findings)
    if (f.rule == "source-parse-incomplete") in.notes.push_back(f.location.display() + ": " + f.message);
  in.failures = out.report.failures;
  MigrationPlan plan = build_plan(std::move(in), blockers);
  if (baseline) plan.comparison = compare_progress(*baseline, progress_of(plan), a.baseline);
  const std::string text = reporters::render_plan(*reporters::parse_plan_format(a.format), plan);
  write_output(a.output, text, a.sources.report_inputs(req));
  if (!a.write_baseline.empty()) write_file_atomically(a.write_baseline, reporters::render_plan_json(plan));
  if (plan.comparison) {
    const auto& c = *plan.comparison;
    std::cerr << "torchabi: uses left: " << c.now << " (" << c.before << " in " << c.baseline << ")";
    if (c.regressed) {
      std::cerr << "; went up";
      for (const auto& s : c.steps)
        if (s.status == "up") std::cerr << ", step " << s.id << " " << *s.before << " -> " << *s.now;
      std::cerr << "\n";
      return kExitFindings;
    }
    std::cerr << "\n";
  }
  return kExitClean;
}

}  // namespace

void add_migrate_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "migrate", "Plan the port to the LibTorch stable ABI (md, html, json); --fix applies the mechanical rewrites");
  auto args = std::make_shared<MigrateArgs>();
  add_source_inputs(*cmd, std::shared_ptr<SourceInputs>(args, &args->sources),
                    "Sources or headers to migrate (default: every file of the compile database)");
  cmd->add_option("--format", args->format, "Plan format: md (a pull-request comment, default), html, json")->group("Plan");
  cmd->add_option("-o,--output", args->output, "Write the plan (or the --dry-run diff) to FILE, atomically")->group("Plan");
  cmd->add_flag("--fix", args->fix, "Apply the mechanical rewrites in place (each file replaced atomically)")->group("Fix");
  cmd->add_flag("--dry-run", args->dry_run, "With --fix: print the rewrites as a unified diff; exit 1 if there are any")
      ->group("Fix");
  cmd->add_flag("--unsafe-fixes", args->unsafe_fixes, "With --fix: also apply rewrites that need review")->group("Fix");
  cmd->add_flag("--verify", args->verify,
                "With --fix: build the project before and after the rewrites against a real torch (--torch), the "
                "port also with the stable headers alone, and compare every op's outputs; exit 1 unless all agree")
      ->group("Verify");
  cmd->add_option("--verify-report", args->verify_report, "With --verify: also write the verification as JSON to FILE")
      ->group("Verify");
  add_verify_options(*cmd, args->verify_options, "Verify");
  cmd->add_option("--target-version", args->target_version,
                  "Stay at or below this release (2.9, 0x0209000000000000): the plan lists what cannot, --fix writes "
                  "the spellings that build there (default: the plan's lowest target)");
  cmd->add_option("--baseline", args->baseline,
                  "Compare the uses left with a previous plan's JSON (--write-baseline, or --format json); exit 1 "
                  "when they went up, in total or in a step")
      ->group("Progress");
  cmd->add_option("--write-baseline", args->write_baseline,
                  "Also write this plan's JSON to FILE, atomically, for a later --baseline")
      ->group("Progress");
  add_lint_options(*cmd, args->lint);
  add_common_report_options(*cmd, args->shared);
  cmd->footer("Compiler arguments after -- are used for the FILEs (added to their compile database flags with -p).");
  cmd->callback([&d, args, cmd] {
    args->sources.finish_parse(*cmd);
    args->lint.verbose = args->shared.verbose;
    args->lint.config = args->shared.config;
    d.run = [args, cmd] { return run(*args, *cmd); };
  });
}

}  // namespace torchabi::cli
