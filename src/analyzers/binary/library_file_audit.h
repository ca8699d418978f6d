// The audit of one library file on disk, whatever its format: ELF (also
// resolved against --torch installs), Mach-O or PE. What `audit PATH`,
// `audit --env` and `audit NAME` do for every library they reach.
#pragma once

#include <string>

#include "analyzers/binary/audit_options.h"
#include "analyzers/binary/image_audit.h"
#include "analyzers/binary/packaging_checks.h"
#include "analyzers/binary/symbol_classifier.h"
#include "findings/finding.h"

namespace torchabi::binary {

// Adds the library's subjects and findings. Throws InputError naming `path`
// when it cannot be read; the caller drops whatever it had added then.
ImageAudit audit_library_file(const std::string& path, SymbolClassifier& classifier, const AuditOptions& options,
                              findings::Report& report, const PackagingContext& packaging = {});

}  // namespace torchabi::binary
