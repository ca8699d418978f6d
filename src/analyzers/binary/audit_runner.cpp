#include "analyzers/binary/audit_runner.h"

#include "analyzers/binary/audit_inputs.h"
#include "analyzers/binary/image_audit.h"
#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/torch_audit.h"
#include "analyzers/binary/wheel_audit.h"
#include "common/input_error.h"
#include "common/mapped_file.h"
#include "inputs/elf_view.h"
#include "inputs/object_image.h"
#include "inputs/rules_source.h"

namespace torchabi::binary {

namespace {

void audit_library_file(const std::string& path, SymbolClassifier& classifier, const AuditOptions& options,
                        findings::Report& report) {
  MappedFile file(path);
  findings::Location where;
  where.file = path;
  const inputs::BinaryFormat format = inputs::sniff_binary(file.bytes());
  if (format != inputs::BinaryFormat::Elf && format != inputs::BinaryFormat::Unknown) {
    // Mach-O and PE: no PyTorch install here has that format to load against.
    audit_object_image(file.bytes(), path, where, options, classifier, report);
    return;
  }
  inputs::ElfView elf(file.bytes(), path);
  LibraryScan scan = scan_library(elf, classifier);
  const VersionFloor floor = report_library(scan, where, options, report);
  audit_on_torches(elf, scan, floor, where, options, classifier, report, report.subjects.size() - 1);
}

}  // namespace

findings::Report run_audit(const std::vector<std::string>& paths, const AuditOptions& given,
                           SymbolClassifier& classifier) {
  findings::Report report;
  report.command = "audit";
  // --torch installs first: a PATH that is no install is an input error, and
  // the libraries are still audited against the others.
  AuditOptions options = given;
  const auto installs = open_torch_installs(given.torch_paths, inputs::RulesSource::current(), report);
  for (const auto& t : installs) options.torches.push_back(t.get());
  ExpandedInputs inputs = expand_inputs(paths);
  report.failures.insert(report.failures.end(), inputs.failures.begin(), inputs.failures.end());
  for (const auto& a : inputs.artifacts) {
    // A failure must not leave half of an input's entries behind.
    const size_t subjects = report.subjects.size(), found = report.findings.size();
    try {
      if (a.kind == ArtifactKind::Wheel) {
        MappedFile file(a.path);
        audit_wheel(a.path, file.bytes(), classifier, options, report);
      } else {
        audit_library_file(a.path, classifier, options, report);
      }
    } catch (const InputError& e) {
      report.subjects.resize(subjects);
      report.findings.resize(found);
      report.failures.push_back({e.input(), e.what()});
    }
  }
  return report;
}

}  // namespace torchabi::binary
