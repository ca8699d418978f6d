#include "analyzers/binary/member_audit.h"

#include "analyzers/binary/cuda_needs.h"
#include "analyzers/binary/image_audit.h"
#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/torch_audit.h"
#include "common/input_error.h"
#include "inputs/elf_view.h"
#include "inputs/object_image.h"

namespace torchabi::binary {

void audit_package_member(const std::string& path, const std::string& member, std::span<const std::byte> lib,
                          const PackagingContext& packaging, SymbolClassifier& classifier, const AuditOptions& options,
                          findings::Report& report, PackageTotals& totals) {
  ++totals.libraries;
  try {
    findings::Location where;
    where.file = path;
    where.member = member;
    const inputs::BinaryFormat format = inputs::sniff_binary(lib);
    if (format != inputs::BinaryFormat::Elf && format != inputs::BinaryFormat::Unknown) {
      ImageAudit image = audit_object_image(lib, path + "!" + member, member, packaging, where, options, classifier, report);
      for (auto& s : image.floor.set_by) s = member + ": " + s;
      totals.floor.raise_to(image.floor);
      totals.verdict = worse_verdict(totals.verdict, image.verdict);  // as unstable as its worst library
      return;
    }
    inputs::ElfView elf(lib, path + "!" + member);
    LibraryScan scan = scan_library(elf, classifier);
    VersionFloor lib_floor = report_library(scan, where, options, report);
    check_packaging(scan, member, packaging, where, report.subjects.size() - 1, report);
    audit_on_torches(elf, scan, lib_floor, where, options, classifier, report, report.subjects.size() - 1);
    for (auto& s : lib_floor.set_by) s = member + ": " + s;
    totals.floor.raise_to(lib_floor);
    totals.verdict = worse_verdict(totals.verdict, verdict_of(scan));
    totals.cuda.merge(cuda_needs(scan.needed));
  } catch (const InputError& e) {
    report.failures.push_back({e.input(), e.what()});
  }
}

void check_requirement_floor(const std::string& rule, const std::string& path, const std::string& requirement_member,
                             const char* what, const char* installer, const PackageTotals& totals, const TorchAllowance& allowed,
                             const std::string& help, findings::Report& report) {
  // Only a dated floor can be checked: "<=2.9" does not say which older
  // release lacks the functions.
  const VersionFloor& floor = totals.floor;
  if (totals.verdict != kVerdictStable || !floor.version || floor.baseline || !allowed.allows_older_than(*floor.version))
    return;
  findings::Finding f;
  f.rule = rule;
  f.location.file = path;
  f.location.member = requirement_member;
  const std::string need = "PyTorch >= " + floor.version->str();
  const std::string libs = std::string("the ") + what + "'s libraries need " + need;
  switch (allowed.kind) {
    case TorchAllowance::Kind::NotDeclared:
      f.message = std::string("the ") + what + " does not require torch, so " + installer +
                  " installs it next to any release, but its libraries need " + need;
      break;
    case TorchAllowance::Kind::NoLowerBound:
      f.message = "'" + allowed.requirement + "' sets no lower bound on torch, but " + libs;
      break;
    default:
      f.message = "'" + allowed.requirement + "' allows torch " + allowed.bound.str() + ", but " + libs;
  }
  f.help = help;
  for (const auto& by : floor.set_by) f.notes.push_back("floor set by " + by);
  report.add(std::move(f));
}

}  // namespace torchabi::binary
