#include "analyzers/binary/library_file_audit.h"

#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/torch_audit.h"
#include "common/mapped_file.h"
#include "inputs/elf_view.h"
#include "inputs/object_image.h"

namespace torchabi::binary {

ImageAudit audit_library_file(const std::string& path, SymbolClassifier& classifier, const AuditOptions& options,
                              findings::Report& report, const PackagingContext& packaging) {
  MappedFile file(path);
  findings::Location where;
  where.file = path;
  const inputs::BinaryFormat format = inputs::sniff_binary(file.bytes());
  if (format != inputs::BinaryFormat::Elf && format != inputs::BinaryFormat::Unknown) {
    // Mach-O and PE: no PyTorch install here has that format to load against.
    return audit_object_image(file.bytes(), path, path, packaging, where, options, classifier, report);
  }
  inputs::ElfView elf(file.bytes(), path);
  LibraryScan scan = scan_library(elf, classifier);
  ImageAudit out;
  out.floor = report_library(scan, where, options, report);
  out.verdict = verdict_of(scan);
  check_packaging(scan, path, packaging, where, report.subjects.size() - 1, report);
  audit_on_torches(elf, scan, out.floor, where, options, classifier, report, report.subjects.size() - 1);
  return out;
}

}  // namespace torchabi::binary
