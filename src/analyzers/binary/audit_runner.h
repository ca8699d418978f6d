// `torchabi audit` minus the command line: audits every input and collects
// one Report. An input that cannot be read becomes an InputFailure and the
// others are still audited.
#pragma once

#include <string>
#include <vector>

#include "analyzers/binary/audit_options.h"
#include "findings/finding.h"

namespace torchabi::binary {

class SymbolClassifier;

findings::Report run_audit(const std::vector<std::string>& paths, const AuditOptions& options,
                           SymbolClassifier& classifier);

}  // namespace torchabi::binary
