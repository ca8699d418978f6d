// What a wheel and a conda package share: auditing each library found inside
// the package (in memory), summing them into the package's totals, and the
// check of the package's stated torch requirement against the floor.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "analyzers/binary/audit_options.h"
#include "analyzers/binary/package_summary.h"
#include "analyzers/binary/packaging_checks.h"
#include "analyzers/binary/torch_requirement.h"
#include "findings/finding.h"

namespace torchabi::binary {

class SymbolClassifier;

// Audits the library `member` of `package` and folds its verdict and floor
// into `totals`. An unreadable member becomes an InputFailure naming
// "package!member"; the caller goes on with the next one.
void audit_package_member(const std::string& package, const std::string& member, std::span<const std::byte> library,
                          const PackagingContext& packaging, SymbolClassifier& classifier, const AuditOptions& options,
                          findings::Report& report, PackageTotals& totals);

// Adds `rule` at package!`requirement_member` when the package is stable,
// its floor is dated, and `allowed` lets an older torch in. `what` names the
// package kind in messages ("wheel", "conda package") and `installer` what
// installs it ("pip", "conda"); `help` says how to fix it.
void check_requirement_floor(const std::string& rule, const std::string& package, const std::string& requirement_member,
                             const char* what, const char* installer, const PackageTotals& totals, const TorchAllowance& allowed,
                             const std::string& help, findings::Report& report);

}  // namespace torchabi::binary
