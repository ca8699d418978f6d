#include "analyzers/binary/image_audit.h"

#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "inputs/object_image.h"

namespace torchabi::binary {

namespace {

int verdict_rank(std::string_view v) { return v == kVerdictUnstable ? 2 : v == kVerdictStable ? 1 : 0; }

}  // namespace

std::string worse_verdict(const std::string& a, const std::string& b) {
  return verdict_rank(b) > verdict_rank(a) ? b : a;
}

ImageAudit audit_object_image(std::span<const std::byte> bytes, const std::string& label, std::string_view name,
                              const PackagingContext& packaging, const findings::Location& where,
                              const AuditOptions& options, SymbolClassifier& classifier, findings::Report& report) {
  // Every slice is read before anything is reported: a damaged slice must not
  // leave the others' entries behind.
  const std::vector<inputs::ObjectImage> images = inputs::read_object_image(bytes, label);
  ImageAudit out;
  out.verdict = kVerdictNoTorch;
  for (const auto& image : images) {
    const LibraryScan scan = scan_library(image, classifier);
    VersionFloor floor = report_library(scan, where, options, report);
    findings::Subject& s = report.subjects.back();
    if (images.size() > 1) s.path += " (" + image.machine + ")";
    s.facts.insert(s.facts.begin(), {"format", scan.format});
    if (!image.min_os.empty()) s.facts.emplace_back("macOS deployment target", image.min_os);
    size_t delayed = 0;
    for (const auto& imp : image.imports) delayed += imp.delay_load;
    if (delayed) s.facts.emplace_back("delay-load imports", std::to_string(delayed));
    check_packaging(scan, name, packaging, where, report.subjects.size() - 1, report);
    out.floor.raise_to(floor);
    out.verdict = worse_verdict(out.verdict, verdict_of(scan));
  }
  return out;
}

}  // namespace torchabi::binary
