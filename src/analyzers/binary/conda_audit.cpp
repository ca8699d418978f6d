#include "analyzers/binary/conda_audit.h"

#include "analyzers/binary/conda_requirement.h"
#include "analyzers/binary/library_report.h"
#include "analyzers/binary/member_audit.h"
#include "analyzers/binary/torch_audit.h"
#include "analyzers/binary/torch_itself.h"
#include "analyzers/binary/wheel_audit.h"
#include "inputs/conda_archive.h"
#include "inputs/conda_index.h"
#include "inputs/rules_source.h"

namespace torchabi::binary {

void audit_conda_package(const std::string& path, std::span<const std::byte> bytes, SymbolClassifier& classifier,
                         const AuditOptions& options, findings::Report& report) {
  // The package's own entry goes first; its libraries follow it.
  const size_t package_subject = report.subjects.size();
  const size_t first_finding = report.findings.size();
  report.subjects.push_back({});

  // Conda packages carry no wheel tags: no CPython-ABI or platform promise to check.
  const PackagingContext packaging;
  PackageTotals totals;
  totals.verdict = kVerdictNoTorch;
  // Libraries are audited as the tar streams by, one in memory at a time.
  const inputs::CondaContents contents = inputs::read_conda_package(
      bytes, path, [](std::string_view member) { return is_library_member(member); },
      [&](const std::string& member, std::vector<std::byte> library) {
        audit_package_member(path, member, library, packaging, classifier, options, report, totals);
      });
  const inputs::CondaIndex index = inputs::parse_conda_index(contents.index_json, path + "!info/index.json");

  const std::set<std::string> torch_names = conda_torch_packages(inputs::RulesSource::current());
  // A conda package of PyTorch itself (pytorch, libtorch) is what extensions load on: one line.
  if (torch_names.count(index.name)) {
    report.subjects.resize(package_subject + 1);
    report.findings.resize(first_finding);
    findings::Subject& t = report.subjects[package_subject];
    t = {};
    t.kind = "conda-package";
    t.path = path;
    t.loads_on = torch_itself_line(index.version.substr(0, index.version.find('+')));
    t.facts.emplace_back("distribution", index.name + (index.version.empty() ? "" : " " + index.version));
    t.facts.emplace_back("not audited", std::to_string(totals.libraries) + " libraries of PyTorch's own (what "
                                                                             "extensions load on)");
    return;
  }
  const TorchAllowance allowed = conda_torch_allowance(index, torch_names);
  findings::Subject& s = report.subjects[package_subject];
  s.kind = "conda-package";
  s.path = path;
  summarize_package(totals, s);
  s.facts.emplace_back("distribution", index.name + (index.version.empty() ? "" : " " + index.version));
  if (!index.build.empty()) s.facts.emplace_back("build", index.build);
  if (!index.subdir.empty()) s.facts.emplace_back("subdir", index.subdir);
  s.facts.emplace_back("format", contents.format == inputs::CondaFormat::Conda ? ".conda" : ".tar.bz2");
  s.facts.emplace_back("libraries", std::to_string(totals.libraries));
  s.facts.emplace_back("torch requirement", allowed.describe());
  if (!totals.floor.label().empty()) s.facts.emplace_back("floor", totals.floor.label());
  describe_cuda(totals.cuda, s);

  summarize_wheel_torches(report, package_subject, package_subject + 1);

  const std::string v = totals.floor.version ? totals.floor.version->str() : "";
  check_requirement_floor("binary-conda-depends-too-old", path, "info/index.json", "conda package", "conda", totals,
                          allowed,
                          "depend on the torch release the libraries need: in the recipe's requirements/run, "
                          "'pytorch >=" + v + "' (or 'libtorch >=" + v + "')",
                          report);
}

}  // namespace torchabi::binary
