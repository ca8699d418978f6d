// Signal handlers for the child: when the extension faults, tell the
// supervisor where (an access past the end of a kernel's stack is reported
// with the slot it touched), then die of the same signal so the supervisor
// also sees how the child ended. Async-signal-safe: no allocation, no stdio.
#pragma once

#include "analyzers/runtime/shim/invoke.h"

namespace torchabi::runtime_driver {

void install_fault_handlers(int event_fd, runtime::ActiveStacks* stacks);
// The planned call in progress, included in the fault message.
void set_current_case(long index);

}  // namespace torchabi::runtime_driver
