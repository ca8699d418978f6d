// Audits a conda package (.conda or .tar.bz2) as a wheel is audited: every
// shared library inside it, read in memory, and its `depends` on PyTorch's
// conda packages (info/index.json) against the newest release the libraries
// need.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "analyzers/binary/audit_options.h"
#include "findings/finding.h"

namespace torchabi::binary {

class SymbolClassifier;

// `path` labels the package in the report. A library that cannot be read
// becomes an InputFailure naming "package!member"; the others are still
// audited. Throws InputError when the package itself is unreadable.
void audit_conda_package(const std::string& path, std::span<const std::byte> bytes, SymbolClassifier& classifier,
                         const AuditOptions& options, findings::Report& report);

}  // namespace torchabi::binary
