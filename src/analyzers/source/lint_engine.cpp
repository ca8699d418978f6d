#include "analyzers/source/lint_engine.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "analyzers/source/broken_parse.h"
#include "analyzers/source/inline_suppressions.h"
#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "analyzers/source/result_cache.h"
#include "analyzers/source/shared_preamble.h"
#include "analyzers/source/tu_result_json.h"
#include "analyzers/source/tu_runner.h"

namespace torchabi::source {

namespace fs = std::filesystem;

namespace {

bool is_unstable_rule(const std::string& rule) {
  return rule == "source-unstable-include" || rule == "source-unstable-api" || rule == "source-unstable-macro";
}

// The executable's size and modification time: a rebuilt or upgraded
// torchabi (whose version string may not change) has other checks, so its
// cached results are not this one's.
const std::string& binary_identity() {
  static const std::string id = [] {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return std::string();
    const auto size = fs::file_size(self, ec);
    const auto time = fs::last_write_time(self, ec).time_since_epoch().count();
    return ec ? std::string() : self.string() + ":" + std::to_string(size) + ":" + std::to_string(time);
  }();
  return id;
}

std::string cache_key(const inputs::ClangArgs& a, const LintEnv& env, const LintOptions& o) {
  std::string m = std::string("torchabi-lint\n") + TORCHABI_LINT_VERSION + "\n" + std::to_string(kTuResultFormat) +
                  "\n" + binary_identity() + "\n" + env.digest + "\n" + lint_checks_id() + "\n" +
                  libclang::identity() + "\n";
  // Not the working directory: every path in the arguments is absolute already.
  m += a.file + "\n";
  for (const auto& x : a.args) m += x + '\0';
  for (const auto& r : o.project_roots) m += r + '\n';
  return digest_hex(m) + digest_hex(m, 0x84222325cbf29ce4ull);
}

}  // namespace

// Paths below the working directory, as the user typed them: in locations,
// subjects, messages and notes (fix-its keep absolute paths for tools).
void shorten_paths(findings::Report& report) {
  std::error_code ec;
  std::string cwd = fs::current_path(ec).string();
  if (cwd.empty() || cwd == "/") return;
  cwd += "/";
  auto shorten = [&](std::string& s) {
    for (size_t p = s.find(cwd); p != std::string::npos; p = s.find(cwd, p)) s.erase(p, cwd.size());
  };
  for (auto& f : report.findings) {
    shorten(f.location.file);
    shorten(f.message);
    for (auto& n : f.notes) shorten(n);
  }
  for (auto& s : report.subjects) {
    shorten(s.path);
    for (auto& [k, v] : s.facts) shorten(v);
  }
  for (auto& f : report.failures) shorten(f.input);
}

std::string common_ancestor(const std::vector<std::string>& paths) {
  if (paths.empty()) return {};
  fs::path common = fs::path(paths[0]).lexically_normal();
  for (const auto& p : paths) {
    fs::path cand = fs::path(p).lexically_normal();
    fs::path out;
    auto a = common.begin(), b = cand.begin();
    for (; a != common.end() && b != cand.end() && *a == *b; ++a, ++b) out /= *a;
    common = out;
  }
  std::string s = common.string();
  return s.empty() ? "/" : s;
}

TuResult analyze_translation_unit(const inputs::ClangArgs& args, const LintEnv& env,
                                  const std::vector<std::string>& project_roots, AnalyzeOptions how) {
  TuResult r;
  r.subject.kind = "translation-unit";
  r.subject.path = display_path(args.file);
  ParseRequest req;
  req.args = args;
  req.project_roots = project_roots;
  req.classifier = &env.classifier;
  req.preamble = how.preamble;
  auto outcome = parse_translation_unit(std::move(req));
  if (how.preamble_note) *how.preamble_note = outcome.preamble_note;
  if (!outcome.tu) {
    r.failure = outcome.error;
    r.crashed = outcome.crashed;
    r.files_read.push_back(args.file);
    return r;
  }
  const ParsedTu& tu = *outcome.tu;
  CheckContext ctx(tu, env, r);
  for (auto& check : make_lint_checks()) check->run(ctx);
  note_what_rests_on_a_broken_parse(tu, r);
  r.suppressions = scan_inline_suppressions(ctx);
  r.files_read = tu.files_read();
  if (how.record_missing) r.files_missing = tu.files_missing();
  // Verdict: unstable findings decide; otherwise stable use or stable includes.
  // A note (an unstable macro defined but never expanded) is not a use.
  bool unstable = std::any_of(r.findings.begin(), r.findings.end(), [](const auto& f) {
    return is_unstable_rule(f.rule) && f.severity != findings::Severity::Note;
  });
  bool stable = r.subject.floor.has_value();
  for (const auto& d : tu.includes())
    if (d.kind == HeaderKind::Stable && tu.is_project_file(d.includer)) stable = true;
  r.subject.verdict = unstable ? "UNSTABLE" : stable ? "STABLE" : "NO-TORCH";
  if (how.keep_ast_until_exit) (void)outcome.tu.release();
  return r;
}

LintRun run_lint(const std::vector<inputs::ClangArgs>& tus, const LintEnv& env, const LintOptions& options) {
  LintRun run;
  run.report.command = "lint";
  std::vector<std::optional<TuResult>> results(tus.size());
  std::vector<std::string> keys(tus.size());
  std::optional<ResultCache> cache;
  if (!options.cache_dir.empty()) cache.emplace(options.cache_dir);

  std::vector<size_t> todo;
  for (size_t i = 0; i < tus.size(); ++i) {
    keys[i] = cache_key(tus[i], env, options);
    if (cache) {
      if (auto payload = cache->load(keys[i])) {
        try {
          results[i] = deserialize_tu_result(*payload);
          ++run.from_cache;
          continue;
        } catch (const std::exception&) {
        }
      }
    }
    todo.push_back(i);
  }

  IsolatedHooks hooks;
  hooks.while_waiting = options.while_parsing;
  if (options.progress) {
    options.progress->begin(tus.size(), run.from_cache);
    hooks.started = [&](size_t k) { options.progress->started(tus[todo[k]].file); };
    hooks.finished = [&](size_t k, const IsolatedResult& r) { options.progress->finished(tus[todo[k]].file, r.ok); };
  }
  std::optional<SharedPreambles> preambles;
  if (options.share_preambles && !todo.empty()) {
    preambles.emplace(options.cache_dir.empty() ? std::string() : (fs::path(options.cache_dir) / "preamble").string(),
                      options.project_roots, env.classifier);
    preambles->prepare(tus, todo, options.jobs, [&](const std::string& what) {
      if (options.progress) options.progress->started(what);
    });
    run.notes = preambles->notes();
  }
  // A child's output: why it did not use its preamble (usually nothing), a
  // newline, then its result.
  auto outputs = run_isolated(todo.size(), options.jobs, [&](size_t k) {
    AnalyzeOptions how;
    how.keep_ast_until_exit = true;
    how.record_missing = cache.has_value();
    std::string note;
    if (preambles) {
      how.preamble = preambles->for_tu(todo[k]);
      how.preamble_note = &note;
    }
    std::string result = serialize_tu_result(analyze_translation_unit(tus[todo[k]], env, options.project_roots, how));
    std::erase(note, '\n');
    return note + "\n" + result;
  }, hooks);
  if (options.progress) options.progress->end();
  for (size_t k = 0; k < todo.size(); ++k) {
    const size_t i = todo[k];
    if (outputs[k].ok) {
      const size_t nl = outputs[k].output.find('\n');
      if (nl != std::string::npos && nl > 0)
        run.notes.push_back(display_path(tus[i].file) + ": " + outputs[k].output.substr(0, nl));
      outputs[k].output.erase(0, nl == std::string::npos ? 0 : nl + 1);
    }
    if (!outputs[k].ok) {
      TuResult failed;
      failed.subject.path = display_path(tus[i].file);
      failed.failure = "libclang " + outputs[k].error + " while analysing this file";
      failed.crashed = true;
      results[i] = std::move(failed);
      continue;
    }
    results[i] = deserialize_tu_result(outputs[k].output);
    if (cache && results[i]->failure.empty()) {
      // The entry keeps the inputs once, as the cache's own records: a TU of
      // torch/extension.h reads ~5k headers and misses tens of thousands of
      // paths, which the payload need not carry again.
      TuResult stored = *results[i];
      stored.files_read.clear();
      stored.files_missing.clear();
      cache->store(keys[i], results[i]->files_read, results[i]->files_missing, serialize_tu_result(stored));
    }
  }

  // Merge: one finding per location even when several TUs include the header,
  // or one file is compiled in several configurations. A finding that only
  // some configurations of its files have says which (the others are fine).
  using Key = std::tuple<std::string, std::string, uint32_t, uint32_t, std::string>;
  std::map<Key, size_t> seen;
  std::vector<std::set<std::string>> labels_of;        // per finding: configurations reporting it
  std::vector<std::set<std::string>> files_of;         // per finding: main files of those TUs
  std::map<std::string, std::set<std::string>> configurations_of_file;
  std::set<std::pair<std::string, uint32_t>> compiled_elsewhere;  // by reference-only configurations
  std::vector<InlineSuppression> suppressions;
  std::vector<findings::InputFailure> failures;
  std::vector<bool> parse_failed;  // per failure: the file was there and clang failed on it
  for (size_t i = 0; i < tus.size(); ++i) {
    TuResult& r = *results[i];
    if (!r.failure.empty()) {
      if (tus[i].reference_only) continue;  // only ever a help for the others
      failures.push_back({display_path(tus[i].file) + (tus[i].label.empty() ? "" : " [" + tus[i].label + "]"),
                          r.failure});
      parse_failed.push_back(r.crashed || r.failure.starts_with("libclang could not parse"));
      continue;
    }
    if (tus[i].reference_only) {
      for (const auto& f : r.findings) compiled_elsewhere.emplace(f.location.file, f.location.line);
      continue;
    }
    ++run.analysed;
    if (!tus[i].label.empty()) {
      configurations_of_file[tus[i].file].insert(tus[i].label);
      r.subject.facts.insert(r.subject.facts.begin(), {"configuration", tus[i].label});
    }
    for (auto& f : r.findings) {
      auto [it, fresh] = seen.emplace(Key{f.rule, f.location.file, f.location.line, f.location.column, f.message},
                                      run.report.findings.size());
      if (fresh) {
        run.report.findings.push_back(std::move(f));
        labels_of.emplace_back();
        files_of.emplace_back();
      }
      if (!tus[i].label.empty()) labels_of[it->second].insert(tus[i].label);
      files_of[it->second].insert(tus[i].file);
    }
    suppressions.insert(suppressions.end(), r.suppressions.begin(), r.suppressions.end());
    run.report.subjects.push_back(std::move(r.subject));
  }
  for (size_t k = 0; k < labels_of.size(); ++k) {
    std::set<std::string> all;
    for (const auto& file : files_of[k])
      if (auto it = configurations_of_file.find(file); it != configurations_of_file.end())
        all.insert(it->second.begin(), it->second.end());
    if (labels_of[k].empty() || labels_of[k].size() == all.size()) continue;
    std::string only;
    for (const auto& l : labels_of[k]) only += (only.empty() ? "" : "; ") + l;
    run.report.findings[k].notes.push_back("only in the configuration" + std::string(labels_of[k].size() == 1 ? "" : "s") +
                                           " " + only + " (of " + std::to_string(all.size()) + " that compile it)");
  }
  // Code a legacy configuration compiles on purpose is not inactive code.
  if (!compiled_elsewhere.empty())
    std::erase_if(run.report.findings, [&](const findings::Finding& f) {
      return f.rule == "source-inactive-branch" && compiled_elsewhere.count({f.location.file, f.location.line});
    });
  apply_inline_suppressions(run.report, std::move(suppressions));

  run.failed = failures.size();
  if (run.analysed == 0) {
    run.report.failures = std::move(failures);
  } else {
    for (size_t k = 0; k < failures.size(); ++k) {
      const auto& f = failures[k];
      findings::Finding n;
      // A file past --tu-timeout/--tu-memory or the inherited ulimit -v
      // (tu_runner.h), or one libclang crashed or failed on, is an error, not
      // a note: it was there to be checked and nothing in it was (no green
      // without analysis). A file that is not there is an input mistake.
      const bool over_limit = hit_a_limit(f.message);
      n.rule = over_limit       ? "source-tu-over-limit"
               : parse_failed[k] ? "source-tu-parse-failed"
                                 : "source-tu-not-analysed";
      n.location.file = f.input;
      n.message = "not analysed: " + f.message;
      n.help = over_limit ? "Raise the limit it hit (--tu-timeout SECONDS, --tu-memory SIZE, 0: no limit; or the "
                            "ulimit -v torchabi inherited, which --tu-memory cannot raise) or split the file; the "
                            "other translation units were analysed."
               : parse_failed[k]
                   ? "Lint it with another libclang (TORCHABI_LIBCLANG=/path/to/libclang.so) or rewrite the construct "
                     "clang fails on (stderr shows the parse); until then nothing in this file is checked. The other "
                     "translation units were analysed."
                   : "Check that the file exists and that its compile command is right; the other translation "
                     "units were analysed.";
      run.report.findings.push_back(std::move(n));
      run.warnings.push_back(f.input + ": not analysed: " + f.message);
    }
  }
  shorten_paths(run.report);
  for (auto& w : run.warnings) {
    std::error_code ec;
    const std::string cwd = fs::current_path(ec).string() + "/";
    if (w.starts_with(cwd)) w.erase(0, cwd.size());
  }
  std::stable_sort(run.report.findings.begin(), run.report.findings.end(), [](const auto& a, const auto& b) {
    return std::tie(a.location.file, a.location.line, a.location.column, a.rule) <
           std::tie(b.location.file, b.location.line, b.location.column, b.rule);
  });
  return run;
}

}  // namespace torchabi::source
