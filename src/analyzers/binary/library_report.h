// Turns the scan of one library into its report entry: the verdict
// (STABLE / UNSTABLE / NO-TORCH), the releases it loads on, and findings.
#pragma once

#include "analyzers/binary/audit_options.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/version_floor.h"
#include "findings/finding.h"

namespace torchabi::binary {

inline constexpr const char* kVerdictStable = "STABLE";
inline constexpr const char* kVerdictUnstable = "UNSTABLE";
inline constexpr const char* kVerdictNoTorch = "NO-TORCH";

const char* verdict_of(const LibraryScan& scan);

// Appends the library's Subject and findings to `report`. `where` names the
// library: file (and member, inside a wheel). Returns the library's floor.
VersionFloor report_library(const LibraryScan& scan, const findings::Location& where, const AuditOptions& options,
                            findings::Report& report);

}  // namespace torchabi::binary
