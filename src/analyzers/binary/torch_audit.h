// `audit --torch PATH`: opens the installs once per run and, for every
// audited library, records whether it loads on each (the subject's `torch`
// entries), adds the findings, and replaces the rules-based "loads on" of a
// stable library with the measured answer.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analyzers/binary/audit_options.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/version_floor.h"
#include "findings/finding.h"
#include "inputs/torch_install.h"

namespace torchabi::inputs {
class ElfView;
class RulesSource;
}  // namespace torchabi::inputs

namespace torchabi::binary {

// PyTorch's library names, from rules/api/torch_libraries.yaml. Throws
// InputError naming the rules when the file is malformed.
inputs::TorchLibraryNames torch_library_names(const inputs::RulesSource& rules);

// Opens each PATH (duplicates once). One that is not a PyTorch install
// becomes an InputFailure (exit 2); the others are described in
// report.torches, in the order given.
std::vector<std::shared_ptr<inputs::TorchInstall>> open_torch_installs(const std::vector<std::string>& paths,
                                                                       const inputs::RulesSource& rules,
                                                                       findings::Report& report);

// From now on, open_torch_installs() hands out the install it opened for a
// path earlier in this process (with the libraries it has read since) instead
// of opening it again: for a process that audits many artifacts against the
// same installs (`scan`'s batches). Answers are the same; only the reading is
// not repeated.
void reuse_torch_installs();

// Resolves one library against every install of `options` and updates
// report.subjects[subject] (its `torch` entries and loads_on).
void audit_on_torches(const inputs::ElfView& elf, const LibraryScan& scan, const VersionFloor& floor,
                      const findings::Location& where, const AuditOptions& options, SymbolClassifier& classifier,
                      findings::Report& report, size_t subject);

// A wheel's answer per install, from its libraries' subjects
// report.subjects[first_library, end).
void summarize_wheel_torches(findings::Report& report, size_t wheel_subject, size_t first_library);

}  // namespace torchabi::binary
