// `torchabi check PATH...`: lint and audit together, on whatever is given —
// a source tree with a build directory (its compile_commands.json is linted,
// the .so files and wheels built under it are audited), a .so, a wheel, or a
// source file. One report; the exit code follows lint's rule for partial
// input: 2 only when nothing at all could be analysed; otherwise findings for
// what was read, and a note (plus an entry in the report's errors) for each
// input that could not be.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "analyzers/binary/audit_runner.h"
#include "analyzers/build/both_ways.h"
#include "analyzers/build/configuration_checks.h"
#include "analyzers/source/configurations.h"
#include "analyzers/binary/symbol_classifier.h"
#include "analyzers/source/lint_targets.h"
#include "analyzers/source/rules_import.h"
#include "cli/audit_target.h"
#include "cli/commands.h"
#include "cli/lint_options.h"
#include "cli/progress_line.h"
#include "cli/report_options.h"
#include "common/input_error.h"
#include "common/text.h"
#include "findings/config.h"
#include "inputs/api_catalog.h"
#include "inputs/build_ninja.h"
#include "inputs/compile_db_reader.h"
#include "inputs/project/jit_load.h"
#include "inputs/project/project_build.h"
#include "inputs/project/source_sweep.h"
#include "inputs/rules_source.h"
#include "reporters/path_bytes.h"  // one_line: a name with a newline stays one line

namespace torchabi::cli {

namespace fs = std::filesystem;

namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::vector<std::string> defines;  // -D NAME[=VALUE]: added to the commands read from build files
  std::string python = "python3";    // whose torch provides the headers in project mode
  std::string target_version;
  // Project mode: whether the build script may run (setup.py in CPython, a
  // CMake configure), from a temporary copy; unset: the config's run-build,
  // else yes.
  std::optional<bool> run_build;
  std::string run_build_text;  // as given: yes, no, unconfined ("" when not)
  bool unconfined = false;     // --run-build=unconfined
  bool python_given = false;   // --python was given (else python3)
  // --allow-partial: a project analysis that did not cover the build as
  // built is a note, not an error (unset: the config's allow-partial).
  bool allow_partial = false;
  std::string platform = "linux";
  int build_timeout = 120;
  LintOptionsArgs lint;
  ReportOptions report;
};

// A directory's real build: a compile database in it or in a build directory
// below it; else a build.ninja there (CMake -G Ninja); else the
// build/temp.*/build.ninja torch's BuildExtension left (setup.py build_ext,
// pip install .). A database wins over a build.ninja.
std::string find_build_dir(const fs::path& dir) {
  auto in_or_below = [&dir](bool (*has)(const std::string&)) -> std::string {
    if (has(dir.string())) return dir.string();
    std::error_code ec;
    std::vector<std::string> found;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (!it->is_directory(ec)) continue;
      if (has(it->path().string())) found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    for (const auto& f : found)  // prefer the conventional name
      if (fs::path(f).filename() == "build") return f;
    return found.empty() ? std::string() : found.front();
  };
  if (std::string db = in_or_below(inputs::has_compile_db); !db.empty()) return db;
  if (std::string ninja = in_or_below(inputs::has_build_ninja); !ninja.empty()) return ninja;
  if (auto setuptools = inputs::find_setuptools_ninja(dir.string())) return fs::path(*setuptools).parent_path().string();
  return {};
}

// A wheel, `x.so`, or a versioned `libx.so.1.2`: the suffix after ".so" must
// be version numbers, so that `x.so.bak` or `x.so.orig` lying in a tree are
// not audited as the project's build.
bool is_artifact(const fs::path& p) {
  const std::string name = p.filename().string();
  if (name.ends_with(".whl") || name.ends_with(".so")) return true;
  const size_t at = name.rfind(".so.");
  if (at == std::string::npos) return false;
  const std::string version = name.substr(at + 4);
  return !version.empty() && version.find_first_not_of("0123456789.") == std::string::npos && !version.ends_with(".");
}

// Built artifacts under `dir`, skipping hidden directories (caches, .git).
std::vector<std::string> find_artifacts(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && name.starts_with(".")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && is_artifact(it->path())) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void append(findings::Report& into, findings::Report&& from) {
  for (auto& s : from.subjects) into.subjects.push_back(std::move(s));
  for (auto& f : from.findings) into.findings.push_back(std::move(f));
  for (auto& f : from.failures) into.failures.push_back(std::move(f));
  into.suppressed += from.suppressed;
  into.baselined += from.baselined;
}

// What project mode read and guessed, in the report (so that a wrong guess
// is visible), and a note per value it could not resolve.
// What of the build was not analysed as the project builds it: errors, so
// that a gate that read part of the build does not pass, unless the user
// accepts partial analysis (then notes). The reasons for one project are
// one finding, the missing interpreter another.
void add_analysis_gaps(findings::Report& report, const inputs::ProjectBuild& project, bool allow_partial) {
  const auto severity = allow_partial ? findings::Severity::Note : findings::Severity::Error;
  const std::string accept = allow_partial ? std::string(" (accepted: --allow-partial / allow-partial: true)")
                                           : std::string(", or accept a partial analysis with --allow-partial "
                                                         "(allow-partial: true in the config)");
  std::vector<std::string> reasons;
  const inputs::AnalysisGap* first = nullptr;  // where the finding points: the file that could not be analysed as built
  for (const auto& g : project.gaps) {
    if (g.rule != "project-python-unavailable") {
      reasons.push_back(g.message);
      if (!first) first = &g;
      continue;
    }
    findings::Finding f;
    f.rule = g.rule;
    f.severity = severity;
    f.location.file = g.file;
    f.location.line = static_cast<uint32_t>(g.line);
    f.message = g.message;
    f.help = "Install a Python the project supports (`pyenv install 3.X`, `uv python install 3.X`, a conda "
             "environment) or name one with --python, so that the build script runs" + accept;
    report.findings.push_back(std::move(f));
  }
  if (reasons.empty()) return;
  findings::Finding f;
  f.rule = "project-analysis-partial";
  f.severity = severity;
  f.location.file = first->file;
  f.location.line = static_cast<uint32_t>(first->line);
  f.message = "the build was analysed only in part: " + text::join(reasons, "; ");
  f.help = "Make the build script run here (the reason is above; --build-timeout if it only needs longer), or lint "
           "with a compile database of the real build (`bear -- pip install .`), which always wins" + accept;
  report.findings.push_back(std::move(f));
}

void add_project_facts(findings::Report& report, const inputs::ProjectBuild& project,
                       const std::vector<std::string>& defines, const std::string& platform) {
  findings::Subject s;
  s.kind = "project";
  s.path = project.build_file;
  s.verdict = "READ";
  s.facts = project.facts;
  // How each configuration was obtained, and which are linted.
  std::map<std::string, size_t> elsewhere;  // platform -> configurations not linted
  for (const auto& c : project.configurations) {
    if (c.platform != platform) {
      ++elsewhere[c.platform];
      continue;
    }
    s.facts.emplace_back("configuration " + c.label(),
                         c.method + ", line " + std::to_string(c.line) + ", " + std::to_string(c.sources.size()) +
                             " source" + (c.sources.size() == 1 ? "" : "s") +
                             (c.stable_expected ? "" : "; legacy by design (not held to the stable ABI)"));
  }
  for (const auto& [p, n] : elsewhere)
    s.facts.emplace_back("on " + p, std::to_string(n) + " configuration" + (n == 1 ? "" : "s") +
                                        " compared, not linted (--platform " + p + " lints them)");
  if (!defines.empty()) {
    std::string d;
    for (const auto& x : defines) d += (d.empty() ? "-D" : " -D") + x;
    s.facts.emplace_back("added with -D", d);
  }
  report.subjects.push_back(std::move(s));
  // Two entries computed by one call (`str(root)`, `str(root / "k")`) give
  // the same note: said once.
  std::set<std::tuple<std::string, int, std::string>> said;
  for (const auto& n : project.notes) {
    if (!said.emplace(n.file, n.line, n.message).second) continue;
    findings::Finding f;
    f.rule = "project-flag-unresolved";
    f.severity = findings::Severity::Note;
    f.location.file = n.file;
    f.location.line = static_cast<uint32_t>(n.line);
    f.message = n.message;
    const bool run_failed = n.message.find("could not be run") != std::string::npos ||
                            n.message.find("could not be configured") != std::string::npos;
    if (!n.rule.empty()) {
      f.rule = n.rule;
      f.help = n.help;
      report.findings.push_back(std::move(f));
      continue;
    }
    f.help = run_failed ? "Make the build script run outside a full build (the reason is above; --build-timeout if it "
                          "only needs longer), or lint with a compile database, which always wins"
                        : "Give the value with -D NAME=VALUE or --torch-include, let torchabi run the build script "
                          "(without --no-run-build / run-build: false), or lint with a compile database, which always "
                          "wins";
    report.findings.push_back(std::move(f));
  }
}

// Which build.ninja the linted commands came from (no compile_commands.json).
findings::Subject build_ninja_subject(const inputs::CompileDb& db) {
  findings::Subject s;
  s.kind = "build-commands";
  s.path = db.path;
  s.verdict = "READ";
  const bool setuptools = fs::path(db.path).parent_path().filename().string().starts_with("temp.");
  s.facts.emplace_back("commands from", db.path + (setuptools ? " (written by torch's BuildExtension)" : "") +
                                            "; no compile_commands.json");
  s.facts.emplace_back("compile commands", std::to_string(db.commands.size()));
  // BuildExtension rewrites its build.ninja for each extension it builds:
  // objects it does not list are another extension's, not linted.
  size_t objects = 0;
  std::error_code ec;
  if (setuptools)
    for (auto it = fs::recursive_directory_iterator(fs::path(db.path).parent_path(), ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      objects += it->path().extension() == ".o";
  if (objects > db.commands.size())
    s.facts.emplace_back("not linted", std::to_string(objects - db.commands.size()) + " more object" +
                                           (objects - db.commands.size() == 1 ? "" : "s") +
                                           " here than build.ninja lists (BuildExtension keeps only the last "
                                           "extension's commands); run the build under bear to lint them all");
  return s;
}

int run(CheckArgs a) {
  validate_report_options(a.report);
  // Before anything runs: found out after the projects were read, the same
  // error would come with a report of work done for nothing.
  if (!a.lint.torch_include.empty() && !source::has_stable_headers(a.lint.torch_include))
    throw InputError(a.lint.torch_include, "no PyTorch stable headers here (expected torch/csrc/stable/)");
  if (a.paths.empty()) a.paths.push_back(".");
  const std::string cwd = fs::current_path().string();
  findings::Report report;
  report.command = "check";
  std::vector<std::string> artifacts;
  std::vector<std::string> walked;  // artifacts found in a directory, not named
  std::vector<std::string> sources;
  std::vector<std::pair<std::string, std::string>> build_dirs;  // build directory, the tree it was found in
  std::vector<std::string> projects;  // build descriptions to read (project mode)
  // Directories with sources but no build torchabi understands: swept.
  std::vector<std::pair<std::string, std::string>> sweeps;  // dir, why
  for (const auto& p : a.paths) {
    std::error_code ec;
    fs::path path = fs::absolute(p).lexically_normal();
    if (fs::is_directory(path, ec)) {
      std::string build = find_build_dir(path);
      auto found = find_artifacts(path);
      // No compile database: the build description is read instead (a
      // database, when present, always wins).
      std::optional<std::string> described = build.empty() ? inputs::find_build_description(path.string()) : std::nullopt;
      if (build.empty() && !described && inputs::has_sources(path.string())) {
        sweeps.emplace_back(path.string(), "no compile_commands.json or build.ninja, no build.toml, setup.py, "
                                           "pyproject.toml or CMakeLists.txt, no cpp_extension.load() call");
      } else if (build.empty() && found.empty() && !described) {
        report.failures.push_back({p, "nothing to check: no compile_commands.json or build.ninja (in it, a build directory "
                                      "below it or build/temp.*), no build.toml, setup.py, pyproject.toml or CMakeLists.txt, no Python module calling "
                                      "torch.utils.cpp_extension.load(), and no built .so or .whl"});
        continue;
      }
      if (!build.empty()) build_dirs.emplace_back(build, path.string());
      if (described) projects.push_back(*described);
      artifacts.insert(artifacts.end(), found.begin(), found.end());
      walked.insert(walked.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      if (source::is_source_or_header(path.string())) sources.push_back(path.string());
      else artifacts.push_back(path.string());
    } else {
      report.failures.push_back({p, "not found"});
    }
  }

  // How many translation units and artifacts were analysed: with none, input
  // failures are errors (exit 2); with some, they are notes.
  size_t analysed = 0;
  // A broken compile database is one input that could not be read, not a
  // reason to skip the others.
  // The project's Python is read in the directory checked, unless --project-root says otherwise.
  auto options_in = [&](const std::string& root) {
    LintOptionsArgs lint = a.lint;
    if (lint.project_roots.empty() && !root.empty()) lint.python_roots = {root};
    return lint;
  };
  auto lint = [&](const source::LintRequest& req, const std::string& input, const std::string& root) {
    try {
      LintOutcome out = lint_sources(req, options_in(root), /*registrations=*/true, /*fold_same_method=*/true);
      for (const auto& w : out.warnings) std::cerr << "torchabi: note: " << reporters::one_line(w) << "\n";
      analysed += out.analysed;
      append(report, std::move(out.report));
    } catch (const InputError& e) {
      report.failures.push_back({e.input().empty() ? input : e.input(), e.what()});
    }
  };
  for (const auto& [build, tree] : build_dirs) {
    source::LintRequest req;
    req.build_dir = build;
    req.cwd = cwd;
    if (!inputs::has_compile_db(build)) {  // the build's build.ninja, read here so that the report names it
      std::string why;
      try {
        req.derived_db = inputs::load_build_ninja(build);
        if (req.derived_db->commands.empty()) why = build + "/build.ninja compiles no C/C++/CUDA source";
      } catch (const InputError& e) {
        why = e.line();
      }
      if (!why.empty()) {
        // A build.ninja that says nothing useful is not the last word: the
        // build description, else the sources themselves.
        // The failure is reported either way (a note once something is analysed).
        report.failures.push_back({build, why});
        if (auto described = inputs::find_build_description(tree)) projects.push_back(*described);
        else if (inputs::has_sources(tree)) sweeps.emplace_back(tree, why);
        continue;
      }
      report.subjects.push_back(build_ninja_subject(*req.derived_db));
    }
    lint(req, build, tree);
  }
  // Asked once, when a project needs it: asking Python where torch is costs an import of torch.
  std::optional<inputs::TorchLocation> torch_location;
  auto torch = [&]() -> const inputs::TorchLocation& {
    if (!torch_location) torch_location = inputs::locate_torch(a.lint.torch_include, a.python);
    return *torch_location;
  };
  auto lint_project = [&](inputs::ProjectBuild& project, const std::string& platform, bool compare) {
    source::LintRequest req;
    req.cwd = cwd;
    req.derived_db = project.db;
    std::error_code ec;
    const std::string root = fs::is_directory(project.build_file, ec)
                                 ? project.build_file
                                 : fs::path(project.build_file).parent_path().string();
    const LintOptionsArgs lint_options = options_in(root);
    try {
      LintOutcome out = lint_sources(req, lint_options, /*registrations=*/true, /*fold_same_method=*/true);
      for (const auto& w : out.warnings) std::cerr << "torchabi: note: " << reporters::one_line(w) << "\n";
      analysed += out.analysed;
      // USE_CUDA unknown where it matters: the other way too, merged.
      if (auto again = build::commands_to_lint_with_cuda(project, /*all_unknown=*/!compare, out.report)) {
        source::LintRequest other = req;
        other.derived_db = std::move(*again);
        const size_t n = other.derived_db->commands.size();
        LintOutcome second = lint_sources(other, lint_options, /*registrations=*/false, /*fold_same_method=*/true);
        source::merge_configuration(out.report, std::move(second.report), std::string("-D") + build::kOtherWayDefine);
        build::drop_branches_seen_both_ways(out.report);
        for (auto& subject : report.subjects)
          if (subject.kind == "project" && subject.path == project.build_file)
            subject.facts.emplace_back("linted both ways",
                                       std::to_string(n) + " translation unit" + (n == 1 ? "" : "s") +
                                           " again with -D" + build::kOtherWayDefine + ": the build's " +
                                           build::kOtherWayDefine + " could not be determined and their code depends on it");
      }
      // Compare the configurations the build ships, once each is linted.
      if (compare) build::check_configurations(project, platform, out.report);
      else build::keep_what_rests_on_known_flags(out.report);
      append(report, std::move(out.report));
    } catch (const InputError& e) {
      report.failures.push_back({e.input().empty() ? project.build_file : e.input(), e.what()});
    }
  };
  if (!projects.empty()) {
    inputs::ProjectOptions options;
    options.defines = a.defines;
    options.platform = a.platform;
    options.python = a.python;
    options.python_given = a.python_given;
    options.timeout_seconds = a.build_timeout;
    options.run_build = a.run_build.value_or(true);
    options.unconfined = a.unconfined;
    const findings::Config config = a.report.config.empty() ? findings::Config::discover(a.paths)
                                                            : findings::Config::load_file(a.report.config);
    if (!a.run_build) options.run_build = config.run_build.value_or(true);
    const bool allow_partial = a.allow_partial || config.allow_partial.value_or(false);
    for (const auto& file : projects) {
      const std::string dir = fs::path(file).parent_path().string();
      try {
        inputs::ProjectBuild project = [&] {
          const PhaseLine phase(stderr, ProgressLine::mode_for(stderr, a.report.verbose),
                                "reading the build of " + fs::path(dir).lexically_relative(cwd).lexically_normal().string() +
                                    (options.run_build ? " (its build script runs, sandboxed)" : ""));
          return inputs::read_project_build(file, torch(), options);
        }();
        add_analysis_gaps(report, project, allow_partial);
        if (project.db.commands.empty()) {
          if (inputs::has_sources(dir)) {
            add_project_facts(report, project, a.defines, options.platform);
            sweeps.emplace_back(dir, fs::path(project.build_file).filename().string() +
                                         " declares no C++ or CUDA sources torchabi could read");
          } else {
            add_project_facts(report, project, a.defines, options.platform);
            report.failures.push_back({project.build_file, "declares no C++ or CUDA sources torchabi could read"});
          }
          continue;
        }
        add_project_facts(report, project, a.defines, options.platform);
        lint_project(project, options.platform, /*compare=*/true);
      } catch (const InputError& e) {
        if (inputs::has_sources(dir)) sweeps.emplace_back(dir, e.line());
        else report.failures.push_back({e.input().empty() ? file : e.input(), e.what()});
      }
    }
    inputs::remove_jit_scratch_dirs();  // load_inline sources, linted now
  }
  for (const auto& [dir, why] : sweeps) {
    inputs::ProjectBuild swept = inputs::sweep_sources(dir, torch(), a.defines, why);
    add_project_facts(report, swept, a.defines, "linux");
    if (swept.db.commands.empty()) {
      report.failures.push_back({dir, "the build was not understood (" + why +
                                          ") and no C++/CUDA source includes a PyTorch header"});
      continue;
    }
    lint_project(swept, "linux", /*compare=*/false);
  }
  if (!sources.empty()) {
    source::LintRequest req;
    req.cwd = cwd;
    req.files = sources;
    // A source file is linted with its compile command when a build
    // directory next to it (or the current one) has one.
    std::string build = find_build_dir(fs::path(sources.front()).parent_path());
    if (build.empty()) build = find_build_dir(cwd);
    req.build_dir = build;
    lint(req, sources.front(), "");
  }
  if (!artifacts.empty()) {
    std::sort(artifacts.begin(), artifacts.end());
    artifacts.erase(std::unique(artifacts.begin(), artifacts.end()), artifacts.end());
    const auto& catalog = inputs::ApiCatalog::current();
    binary::AuditOptions options;
    options.target = audit_target_version(a.target_version, a.report.config, a.paths, catalog);
    auto classifier = binary::SymbolClassifier::from_rules(catalog, inputs::RulesSource::current());
    findings::Report audit = binary::run_audit(artifacts, options, classifier, walked);
    analysed += audit.subjects.size();
    append(report, std::move(audit));
  }
  return finish_report(report, a.report, a.paths, /*partial_ok=*/analysed > 0);
}

}  // namespace

void add_check_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "check", "Lint and audit together: source trees with a build directory, .so files, wheels, source files");
  auto args = std::make_shared<CheckArgs>();
  cmd->add_option("PATH", args->paths,
                  "Source trees (with compile_commands.json or build.ninja in a build directory, or a build.toml, setup.py, "
                  "pyproject.toml or CMakeLists.txt that is read, or Python modules calling "
                  "torch.utils.cpp_extension.load()), "
                  ".so, .whl, sources (default: .)");
  cmd->add_option("-D,--define", args->defines,
                  "NAME[=VALUE] for a project read from its build files: a macro setup.py sets in a way "
                  "torchabi cannot read, or a CMake cache variable (as cmake -D)")
      ->allow_extra_args(false);  // one value per -D: what follows is a PATH
  cmd->add_option("--python", args->python,
                  "Interpreter whose torch provides the headers when build files are read, and that runs the build "
                  "script when it satisfies the project's requires-python / .python-version (else the newest one "
                  "found that does: pyenv, uv, conda, python3.X on PATH) (default: python3)");
  cmd->add_flag("--allow-partial", args->allow_partial,
                "Accept a project analysis that did not cover the build as the project builds it (its build script "
                "could not run, another build description was read, sources left unlinted): a note instead of an "
                "error (config: allow-partial: true)");
  cmd->add_flag("--run-build{yes},!--no-run-build{no}", args->run_build_text,
                "Whether a project without a compile database is analysed by running its build script (setup.py in "
                "CPython with setup() recorded, or a CMake configure into a scratch directory), from a temporary copy "
                "in a sandbox (no network, read-only system, cleared environment) with a time limit (default: yes, "
                "unless the config says run-build: false); --no-run-build reads the files only; "
                "--run-build=unconfined runs it without the sandbox where namespaces are not permitted")
      ->check(CLI::IsMember({"yes", "no", "unconfined", "true", "false"}));
  cmd->add_option("--platform", args->platform,
                  "Whose branch of a build script is linted (sys.platform / os.name); the others are compared "
                  "(default: linux)")
      ->check(CLI::IsMember({"linux", "darwin", "win32"}));
  cmd->add_option("--build-timeout", args->build_timeout,
                  "Seconds a project's build script or configure may run (default: 120)")
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--target-version", args->target_version,
                  "Oldest PyTorch release built libraries must load on: 2.10, 2.10.0 or 0x020a000000000000");
  add_lint_options(*cmd, args->lint);
  add_report_options(*cmd, args->report);
  cmd->callback([&d, args, cmd] {
    args->lint.verbose = args->report.verbose;
    args->lint.config = args->report.config;
    args->python_given = cmd->count("--python") > 0;
    if (!args->run_build_text.empty()) {
      args->run_build = args->run_build_text != "no" && args->run_build_text != "false";
      args->unconfined = args->run_build_text == "unconfined";
    }
    d.run = [args] { return run(*args); };
  });
}

}  // namespace torchabi::cli
