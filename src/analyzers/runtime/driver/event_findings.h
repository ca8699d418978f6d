// Turns what the runtime journalled during a load or a kernel call into
// findings, one rule per kind of mistake, each with what to do instead.
#pragma once

#include <string>
#include <vector>

#include "analyzers/runtime/driver/wire.h"
#include "analyzers/runtime/shim/journal.h"

namespace torchabi::runtime_driver {

struct EventFindings {
  std::vector<ProtoFinding> findings;
  // Error codes a shim function returned (the extension saw a failure); the
  // caller attaches them to an exception finding or reports them as ignored.
  std::vector<std::string> shim_errors;
  std::vector<std::string> warnings;  // TORCH_WARN / aoti_torch_warn messages
};

// `op` is the op being called ("" while loading); `context` prefixes each
// message ("case 'add_small': ", "while loading: ").
EventFindings findings_from_events(const std::vector<runtime::Event>& events, const std::string& op,
                                   const std::string& context);

}  // namespace torchabi::runtime_driver
