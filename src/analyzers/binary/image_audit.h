// The audit of a Mach-O or PE library: each architecture (a universal binary
// has several) is scanned and reported like an ELF library — same verdicts,
// floors, target checks and findings — with its format, and for macOS its
// deployment target, as facts.
#pragma once

#include <span>
#include <string>

#include "analyzers/binary/audit_options.h"
#include "analyzers/binary/packaging_checks.h"
#include "analyzers/binary/symbol_classifier.h"
#include "analyzers/binary/version_floor.h"
#include "findings/finding.h"

namespace torchabi::binary {

// What one library file comes to (every architecture of it).
struct ImageAudit {
  VersionFloor floor;   // the highest over the architectures
  std::string verdict;  // the worst over the architectures
};

// The worse of two verdicts: UNSTABLE over STABLE over NO-TORCH.
std::string worse_verdict(const std::string& a, const std::string& b);

// Throws InputError naming `label` when the bytes are not a readable Mach-O
// or PE library; nothing is added to `report` then. `name` is the file or
// member name the packaging checks read.
ImageAudit audit_object_image(std::span<const std::byte> bytes, const std::string& label, std::string_view name,
                              const PackagingContext& packaging, const findings::Location& where,
                              const AuditOptions& options, SymbolClassifier& classifier, findings::Report& report);

}  // namespace torchabi::binary
