// Audits every shared library inside a wheel, in memory, and checks the
// wheel's torch requirement against the newest release its libraries need.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "analyzers/binary/audit_options.h"
#include "findings/finding.h"

namespace torchabi::binary {

class SymbolClassifier;

// True for member names audited as libraries: "*.so" and versioned "*.so.N".
bool is_library_member(std::string_view member);

// `path` labels the wheel in the report. A member that cannot be read becomes
// an InputFailure naming "wheel!member"; the other members are still audited.
// Throws InputError when the wheel itself is unreadable.
void audit_wheel(const std::string& path, std::span<const std::byte> bytes, SymbolClassifier& classifier,
                 const AuditOptions& options, findings::Report& report);

}  // namespace torchabi::binary
