#include "analyzers/binary/torch_audit.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <yaml-cpp/yaml.h>

#include "analyzers/binary/cuda_needs.h"
#include "analyzers/binary/library_report.h"
#include "analyzers/binary/load_resolution.h"
#include "analyzers/binary/torch_findings.h"
#include "common/input_error.h"
#include "inputs/load_diagnosis.h"
#include "inputs/rules_source.h"

namespace torchabi::binary {

inputs::TorchLibraryNames torch_library_names(const inputs::RulesSource& rules) {
  const std::string rel = "api/torch_libraries.yaml";
  inputs::TorchLibraryNames names;
  try {
    YAML::Node doc = YAML::Load(rules.require(rel));
    for (const auto& e : doc["stems"]) names.stems.push_back(e["name"].as<std::string>());
    for (const auto& e : doc["prefixes"]) names.prefixes.push_back(e["name"].as<std::string>());
  } catch (const YAML::Exception& e) {
    throw InputError(rules.describe(), "malformed " + rel + ": " + e.what());
  }
  if (names.stems.empty() && names.prefixes.empty())
    throw InputError(rules.describe(), rel + " names no PyTorch library");
  return names;
}

namespace {
// reuse_torch_installs(): the installs opened so far, by path.
bool reusing_installs = false;
std::map<std::string, std::shared_ptr<inputs::TorchInstall>>& opened_installs() {
  static auto* m = new std::map<std::string, std::shared_ptr<inputs::TorchInstall>>();  // never destroyed
  return *m;
}
}  // namespace

void reuse_torch_installs() { reusing_installs = true; }

std::vector<std::shared_ptr<inputs::TorchInstall>> open_torch_installs(const std::vector<std::string>& paths,
                                                                       const inputs::RulesSource& rules,
                                                                       findings::Report& report) {
  std::vector<std::shared_ptr<inputs::TorchInstall>> out;
  if (paths.empty()) return out;
  static std::optional<inputs::TorchLibraryNames> reused_names;  // read once when reusing
  if (reusing_installs && !reused_names) reused_names = torch_library_names(rules);
  const inputs::TorchLibraryNames names = reusing_installs ? *reused_names : torch_library_names(rules);
  std::set<std::string> seen;
  for (const auto& p : paths) {
    if (!seen.insert(p).second) continue;
    try {
      std::shared_ptr<inputs::TorchInstall> t;
      if (reusing_installs) {
        auto& known = opened_installs()[p];
        if (!known) known = inputs::TorchInstall::open(p, names);
        t = known;
      } else {
        t = inputs::TorchInstall::open(p, names);
      }
      findings::TorchInstallInfo info;
      info.id = p;
      info.kind = t->kind_name();
      info.version = t->version();
      info.version_source = t->version_source();
      for (size_t i = 0; i < t->size(); ++i) info.libraries.push_back(t->library(i).names.front());
      report.torches.push_back(std::move(info));
      out.push_back(std::move(t));
    } catch (const InputError& e) {
      report.failures.push_back({e.input(), e.what()});
    }
  }
  return out;
}

void audit_on_torches(const inputs::ElfView& elf, const LibraryScan& scan, const VersionFloor& floor,
                      const findings::Location& where, const AuditOptions& options, SymbolClassifier& classifier,
                      findings::Report& report, size_t subject) {
  if (options.torches.empty()) return;
  const std::string verdict = verdict_of(scan);
  std::vector<findings::TorchLoad> loads;
  for (auto* torch : options.torches) {
    LoadResolution r = resolve_on_torch(elf, *torch, classifier);
    // An unreadable library of the install is reported once per run.
    for (auto& f : r.failures) {
      bool known = false;
      for (const auto& e : report.failures) known = known || e.input == f.input;
      if (!known) report.failures.push_back(std::move(f));
    }
    r.load.rules_predict_loads = rules_prediction(verdict, floor, !scan.unknown_shims.empty(),
                                                  !compute_build_needs(scan.stable_shims).empty(), torch->release());
    add_torch_findings(r.load, where, floor, report);
    loads.push_back(std::move(r.load));
  }
  // Whatever PyTorch is installed, this machine's C/C++ runtime must define
  // the versions the library requires (GLIBCXX_3.4.32 of a newer toolchain).
  for (const auto& r : inputs::runtime_shortfalls(elf, where.display(), "", [&](std::string_view n) {
         return options.torches.front()->is_torch_name(n);
       })) {
    std::string missing, newest;
    for (const auto& m : r.missing) missing += (missing.empty() ? "" : ", ") + m;
    for (const auto& n : r.newest) newest += (newest.empty() ? "" : ", ") + n;
    findings::Finding f = findings::make_finding(
        "binary-c-runtime-too-old", where,
        "the library needs " + missing + " of " + r.file + ", which this machine's " + r.machine_copy +
            (newest.empty() ? " does not define" : " does not define (it goes up to " + newest + ")") +
            ": it cannot load here on any PyTorch",
        "load it on a system whose C/C++ runtime is at least that new (the one it was built on; `torchabi run --root "
        "DIR` runs it in such a root filesystem), or build it with an older toolchain (a manylinux image) so that "
        "it runs on older systems too");
    report.add(std::move(f));
  }
  findings::Subject& s = report.subjects.at(subject);
  const std::string measured = measured_loads_on(loads);
  // For a stable library the measurement replaces the rules' estimate; for
  // the others it adds to "only the release it was built against".
  s.loads_on = verdict == kVerdictStable ? measured + (s.loads_on.empty() ? "" : "; rules: " + s.loads_on)
                                         : s.loads_on + "; measured: " + measured;
  s.torch = std::move(loads);
  check_cuda_on_torches(cuda_needs(scan.needed), where, options, report, subject);
}

void summarize_wheel_torches(findings::Report& report, size_t wheel_subject, size_t first_library) {
  findings::Subject& wheel = report.subjects.at(wheel_subject);
  size_t count = 0;
  for (size_t i = first_library; i < report.subjects.size(); ++i) count = std::max(count, report.subjects[i].torch.size());
  if (count == 0) return;
  std::vector<findings::TorchLoad> loads;
  for (size_t k = 0; k < count; ++k) {
    std::vector<const findings::TorchLoad*> parts;
    for (size_t i = first_library; i < report.subjects.size(); ++i)
      if (k < report.subjects[i].torch.size()) parts.push_back(&report.subjects[i].torch[k]);
    loads.push_back(combine_loads(parts));
  }
  const std::string measured = measured_loads_on(loads);
  wheel.loads_on = wheel.verdict == kVerdictStable ? measured + (wheel.loads_on.empty() ? "" : "; rules: " + wheel.loads_on)
                                                   : wheel.loads_on + "; measured: " + measured;
  wheel.torch = std::move(loads);
}

}  // namespace torchabi::binary
