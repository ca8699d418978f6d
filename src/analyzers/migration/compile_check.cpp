#include "analyzers/migration/compile_check.h"

#include <algorithm>
#include <map>
#include <set>

#include <clang-c/Index.h>

#include "analyzers/migration/include_graph.h"
#include "analyzers/source/tu_check.h"
#include "analyzers/source/tu_runner.h"

namespace torchabi::migration {

namespace {

struct ParseErrors {
  bool parsed = false;
  size_t errors = 0;
  std::string first;           // "file:line: message" of the first error
  bool missing_stable = false; // a torch/csrc/stable or torch/headeronly header was not found
};

std::string take(CXString s) {
  std::string out = clang_getCString(s) ? clang_getCString(s) : "";
  clang_disposeString(s);
  return out;
}

ParseErrors parse(const inputs::ClangArgs& tu, const std::vector<CXUnsavedFile>& unsaved) {
  ParseErrors out;
  CXIndex index = clang_createIndex(0, 0);
  std::vector<const char*> argv;
  for (const auto& a : tu.args) argv.push_back(a.c_str());
  CXTranslationUnit t = nullptr;
  CXErrorCode rc = clang_parseTranslationUnit2(index, tu.file.c_str(), argv.data(), int(argv.size()),
                                               const_cast<CXUnsavedFile*>(unsaved.data()), unsigned(unsaved.size()),
                                               CXTranslationUnit_KeepGoing, &t);
  if (rc == CXError_Success && t) {
    out.parsed = true;
    for (unsigned i = 0, n = clang_getNumDiagnostics(t); i < n; ++i) {
      CXDiagnostic d = clang_getDiagnostic(t, i);
      if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
        ++out.errors;
        const std::string msg = take(clang_getDiagnosticSpelling(d));
        if (msg.find("file not found") != std::string::npos &&
            (msg.find("torch/csrc/stable/") != std::string::npos || msg.find("torch/headeronly/") != std::string::npos))
          out.missing_stable = true;
        if (out.first.empty()) {
          CXFile f;
          unsigned line = 0;
          clang_getSpellingLocation(clang_getDiagnosticLocation(d), &f, &line, nullptr, nullptr);
          const std::string file = f ? take(clang_getFileName(f)) : std::string();
          out.first = (file.empty() ? "" : shown_path(file) + ":" + std::to_string(line) + ": ") + msg;
        }
      }
      clang_disposeDiagnostic(d);
    }
    clang_disposeTranslationUnit(t);
  }
  clang_disposeIndex(index);
  return out;
}

// Project files a translation unit reads: its main file and what it includes, transitively.
std::set<std::string> closure(const std::string& main, const IncludeGraph& graph) {
  std::set<std::string> seen{normal_path(main)};
  std::vector<std::string> stack{normal_path(main)};
  while (!stack.empty()) {
    const std::string cur = stack.back();
    stack.pop_back();
    auto it = graph.find(cur);
    if (it == graph.end()) continue;
    for (const auto& next : it->second)
      if (seen.insert(next).second) stack.push_back(next);
  }
  return seen;
}

}  // namespace

CheckedFixes plan_checked_fixes(FixSessionInputs in, const std::vector<inputs::ClangArgs>& tus, unsigned jobs) {
  CheckedFixes out;
  std::vector<std::set<std::string>> reads;
  for (const auto& tu : tus) reads.push_back(closure(tu.file, in.includes));

  for (size_t round = 0; round <= tus.size(); ++round) {
    RewritePlan plan = plan_fixes(in);
    std::map<std::string, const FileRewrite*> changed;
    for (const auto& f : plan.files) changed[normal_path(f.path)] = &f;
    std::vector<size_t> affected;
    for (size_t i = 0; i < tus.size(); ++i)
      for (const auto& f : reads[i])
        if (changed.count(f)) {
          affected.push_back(i);
          break;
        }
    if (affected.empty()) {
      out.plan = std::move(plan);
      return out;
    }

    std::vector<CXUnsavedFile> unsaved;
    std::vector<std::string> names;
    names.reserve(changed.size());
    for (const auto& [path, f] : changed) names.push_back(path);
    for (size_t k = 0; k < names.size(); ++k)
      unsaved.push_back({names[k].c_str(), changed[names[k]]->after.data(), (unsigned long)changed[names[k]]->after.size()});

    // Each child answers "ok", "unchecked\t<why>" or "broken\t<first error>".
    auto results = source::run_isolated(affected.size(), jobs, [&](size_t k) -> std::string {
      const auto& tu = tus[affected[k]];
      ParseErrors after = parse(tu, unsaved);
      if (!after.parsed) return "unchecked\tlibclang could not parse it";
      if (after.errors == 0) return "ok";
      if (after.missing_stable)
        return "unchecked\tthe stable headers (torch/csrc/stable/, torch/headeronly/; PyTorch >= 2.9) are not on its "
               "include path";
      ParseErrors before = parse(tu, {});
      if (!before.parsed || before.errors > 0) return "unchecked\tit does not compile cleanly without the rewrites either";
      return "broken\t" + after.first;
    });

    std::set<std::string> revert;
    std::string why;
    for (size_t k = 0; k < affected.size(); ++k) {
      const auto& tu = tus[affected[k]];
      const std::string r = results[k].ok ? results[k].output : "unchecked\tlibclang failed: " + results[k].error;
      if (r == "ok") continue;
      const size_t tab = r.find('\t');
      const std::string kind = r.substr(0, tab), detail = tab == std::string::npos ? "" : r.substr(tab + 1);
      if (kind == "unchecked") {
        const std::string note = "not checked that " + shown_path(tu.file) + " still compiles: " + detail;
        if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end()) out.notes.push_back(note);
        continue;
      }
      for (const auto& f : reads[affected[k]])
        if (changed.count(f)) revert.insert(f);
      why = "the rewrite breaks " + shown_path(tu.file) + " (" + detail + ")";
    }
    if (revert.empty()) {
      out.plan = std::move(plan);
      return out;
    }
    // A reverted header takes its rewritten includers with it, and the other way round.
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [from, tos] : in.includes)
        for (const auto& to : tos) {
          const bool a = revert.count(from) > 0, b = revert.count(to) > 0;
          if (a != b && changed.count(a ? to : from)) {
            revert.insert(a ? to : from);
            grew = true;
          }
        }
    }
    size_t dropped = 0;
    for (const auto& f : plan.files)
      if (revert.count(normal_path(f.path))) dropped += f.applied.size();
    std::string files;
    for (const auto& f : revert) files += (files.empty() ? "" : ", ") + shown_path(f);
    out.notes.push_back("left unchanged (" + std::to_string(dropped) + " rewrite" + (dropped == 1 ? "" : "s") +
                        "): " + files + ": " + why);
    for (auto& u : in.uses)
      if (u.fix && revert.count(normal_path(u.fix->file))) {
        u.fix.reset();
        u.fallback_fix.reset();
      }
  }
  out.plan = plan_fixes(in);
  return out;
}

}  // namespace torchabi::migration
