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

// `found_in_directories`: those of `paths` that the caller found by walking a
// directory (`check DIR`), treated as the files of a directory given here are.
// Libraries of PyTorch itself met that way are one line (torch_itself.h);
// named explicitly, they are audited and say what they are.
findings::Report run_audit(const std::vector<std::string>& paths, const AuditOptions& options,
                           SymbolClassifier& classifier, const std::vector<std::string>& found_in_directories = {});

}  // namespace torchabi::binary
