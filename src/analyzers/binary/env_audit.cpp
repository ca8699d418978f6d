#include "analyzers/binary/env_audit.h"

#include <filesystem>

#include "analyzers/binary/library_file_audit.h"
#include "analyzers/binary/library_report.h"
#include "analyzers/binary/package_summary.h"
#include "analyzers/binary/torch_itself.h"
#include "analyzers/binary/wheel_audit.h"
#include "common/input_error.h"
#include "common/text.h"

namespace torchabi::binary {

namespace fs = std::filesystem;

namespace {

using text::join;

std::vector<std::string> libraries_of(const inputs::InstalledDistribution& d) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& f : d.files)
    if (is_library_member(f) && fs::is_regular_file(f, ec)) out.push_back(f);
  return out;
}

void environment_entry(const inputs::PythonEnvironment& env, size_t with_libraries, findings::Report& report) {
  findings::Subject s;
  s.kind = "environment";
  s.path = env.python;
  s.loads_on = "Python environment";
  s.facts.emplace_back("Python", env.python_version);
  s.facts.emplace_back("site-packages", env.site_dirs.empty() ? "(none)" : join(env.site_dirs));
  const inputs::InstalledDistribution* torch = env.find("torch");
  s.facts.emplace_back("torch", torch ? torch->version + " (" + torch->info_dir + "; not audited: the release the "
                                                                                  "extensions load on)"
                                      : "not installed");
  s.facts.emplace_back("distributions", std::to_string(env.distributions.size()) + ", " +
                                            std::to_string(with_libraries) + " with shared libraries");
  report.subjects.push_back(std::move(s));
}

void audit_distribution(const inputs::InstalledDistribution& d, const std::vector<std::string>& libs, bool fold_no_torch,
                        SymbolClassifier& classifier, const AuditOptions& options, findings::Report& report) {
  const size_t entry = report.subjects.size();
  report.subjects.push_back({});
  PackageTotals totals;
  totals.verdict = kVerdictNoTorch;
  for (const auto& lib : libs) {
    const size_t subjects = report.subjects.size(), found = report.findings.size();
    try {
      ImageAudit a = audit_library_file(lib, classifier, options, report);
      // `audit torch`: audited as asked, and said to be PyTorch's own.
      if (d.normalized == "torch") {
        inputs::TorchDistribution t;
        t.version = d.version;
        t.package_dir = (fs::path(d.info_dir).parent_path() / "torch").string();
        t.evidence = d.info_dir;
        report.add(torch_itself_note(t, lib));
      }
      const std::string rel = fs::path(lib).filename().string();
      for (auto& by : a.floor.set_by) by = rel + ": " + by;
      totals.floor.raise_to(a.floor);
      totals.verdict = worse_verdict(totals.verdict, a.verdict);
      ++totals.libraries;
    } catch (const InputError& e) {
      report.subjects.resize(subjects);
      report.findings.resize(found);
      report.failures.push_back({e.input(), e.what()});
    }
  }
  findings::Subject& s = report.subjects[entry];
  s.kind = "distribution";
  s.path = d.name + (d.version.empty() ? "" : " " + d.version);
  summarize_package(totals, s);
  s.facts.emplace_back("metadata", d.info_dir);
  s.facts.emplace_back("files from", d.files_from);
  s.facts.emplace_back("libraries", std::to_string(totals.libraries));
  // numpy's fifty modules say nothing about PyTorch: one line for all of them.
  if (fold_no_torch && totals.verdict == kVerdictNoTorch) report.subjects.resize(entry + 1);
}

}  // namespace

bool looks_like_distribution_name(const std::string& arg) {
  // [A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?, by hand (a std::regex compiled
  // at every audit's start cost more than reading the library).
  const auto alnum = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  };
  if (arg.empty() || !alnum(arg.front()) || !alnum(arg.back())) return false;
  for (char c : arg)
    if (!alnum(c) && c != '.' && c != '_' && c != '-') return false;
  for (const char* ext : {".so", ".whl", ".dylib", ".dll", ".pyd"})
    if (arg.ends_with(ext)) return false;
  std::error_code ec;
  return !fs::exists(arg, ec);
}

void audit_environment(const inputs::PythonEnvironment& env, const std::vector<std::string>& names,
                       SymbolClassifier& classifier, const AuditOptions& options, findings::Report& report) {
  std::vector<std::pair<const inputs::InstalledDistribution*, std::vector<std::string>>> todo;
  size_t with_libraries = 0;
  for (const auto& d : env.distributions) {
    std::vector<std::string> libs = libraries_of(d);
    with_libraries += !libs.empty();
    if (names.empty()) {
      // PyTorch itself is what the extensions are judged against.
      if (libs.empty() || d.normalized == "torch") continue;
    } else if (std::find_if(names.begin(), names.end(), [&](const std::string& n) { return env.find(n) == &d; }) ==
               names.end()) {
      continue;
    }
    todo.emplace_back(&d, std::move(libs));
  }
  environment_entry(env, with_libraries, report);
  for (const auto& [d, libs] : todo) audit_distribution(*d, libs, names.empty(), classifier, options, report);
}

}  // namespace torchabi::binary
