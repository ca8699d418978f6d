#include "analyzers/binary/audit_runner.h"

#include <algorithm>
#include <map>
#include <new>

#include "analyzers/binary/audit_inputs.h"
#include "analyzers/binary/conda_requirement.h"
#include "analyzers/binary/conda_audit.h"
#include "analyzers/binary/env_audit.h"
#include "analyzers/binary/library_file_audit.h"
#include "analyzers/binary/torch_audit.h"
#include "analyzers/binary/torch_itself.h"
#include "analyzers/binary/wheel_audit.h"
#include "common/input_error.h"
#include "common/mapped_file.h"
#include "inputs/python/torch_distribution.h"
#include "inputs/rules_source.h"

namespace torchabi::binary {

namespace {

void audit_environment_inputs(const std::vector<std::string>& names, const AuditOptions& options,
                              SymbolClassifier& classifier, findings::Report& report) {
  const std::string python = options.env_python ? *options.env_python : options.python;
  inputs::PythonEnvironment env;
  try {
    env = inputs::read_python_environment(python);
  } catch (const InputError& e) {
    report.failures.push_back({e.input(), e.what()});
    for (const auto& n : names) report.failures.push_back({n, "no such file or directory"});
    return;
  }
  std::vector<std::string> found;
  for (const auto& n : names) {
    if (env.find(n)) found.push_back(n);
    else
      report.failures.push_back({n, "no such file or directory, and no distribution of that name is installed for " +
                                        python + " (" + std::to_string(env.distributions.size()) + " are)"});
  }
  if (options.env_python) found.clear();  // the whole environment: every distribution
  if (options.env_python || !found.empty()) audit_environment(env, found, classifier, options, report);
}

}  // namespace

findings::Report run_audit(const std::vector<std::string>& paths, const AuditOptions& given,
                           SymbolClassifier& classifier, const std::vector<std::string>& found_in_directories) {
  findings::Report report;
  report.command = "audit";
  // --torch installs first: a PATH that is no install is an input error, and
  // the libraries are still audited against the others.
  AuditOptions options = given;
  const auto installs = open_torch_installs(given.torch_paths, inputs::RulesSource::current(), report);
  for (const auto& t : installs) options.torches.push_back(t.get());
  // Distribution names (`audit NAME`) and --env read the environment once.
  std::vector<std::string> files, names;
  for (const auto& p : paths) (looks_like_distribution_name(p) ? names : files).push_back(p);
  if (options.env_python || !names.empty()) audit_environment_inputs(names, options, classifier, report);
  ExpandedInputs inputs = expand_inputs(files);
  report.failures.insert(report.failures.end(), inputs.failures.begin(), inputs.failures.end());
  for (auto& a : inputs.artifacts)
    if (std::find(found_in_directories.begin(), found_in_directories.end(), a.path) != found_in_directories.end())
      a.named = false;
  inputs::TorchOwnership torch_files(conda_torch_packages(inputs::RulesSource::current()));
  struct TorchEntry {
    size_t subject;
    size_t libraries = 0;
  };
  std::map<std::string, TorchEntry> torch_entries;  // torch package dir -> its one-line subject
  for (const auto& a : inputs.artifacts) {
    const inputs::TorchDistribution* torch =
        a.kind == ArtifactKind::Library ? torch_files.owner_of(a.path) : nullptr;
    if (torch && !a.named) {
      auto [it, fresh] = torch_entries.emplace(torch->package_dir, TorchEntry{report.subjects.size()});
      if (fresh) report.subjects.emplace_back();
      report.subjects[it->second.subject] = torch_itself_subject(*torch, ++it->second.libraries);
      continue;
    }
    // A failure must not leave half of an input's entries behind.
    const size_t subjects = report.subjects.size(), found = report.findings.size();
    try {
      if (a.kind == ArtifactKind::Wheel) {
        MappedFile file(a.path);
        audit_wheel(a.path, file.bytes(), classifier, options, report);
      } else if (a.kind == ArtifactKind::CondaPackage) {
        MappedFile file(a.path);
        audit_conda_package(a.path, file.bytes(), classifier, options, report);
      } else {
        audit_library_file(a.path, classifier, options, report);
        if (torch) report.add(torch_itself_note(*torch, a.path));
      }
    } catch (const InputError& e) {
      report.subjects.resize(subjects);
      report.findings.resize(found);
      report.failures.push_back({e.input(), e.what()});
    } catch (const std::bad_alloc&) {
      // A memory limit reached on one input (issue 38): that input fails, the others are audited.
      report.subjects.resize(subjects);
      report.findings.resize(found);
      report.failures.push_back({a.path, "out of memory while reading it"});
    }
  }
  return report;
}

}  // namespace torchabi::binary
