// The extension's process cannot signal torchabi: it runs in a PID namespace
// of its own (under a user namespace when torchabi is not root), where the
// supervisor has no PID, kill(-1) reaches only the namespace and getppid()
// names the namespace's init. Issue 38 (hostile code).
#pragma once

#include <string>

namespace torchabi::runtime_driver {

// Called in the supervisor's forked child. Returns in the process that
// should run the extension (PID 2 of the new namespace; PID 1 only waits,
// since a namespace's init ignores signals it sends itself, abort() included).
// The process called in waits and ends as the extension's process ended
// (same exit code or same signal), so the supervisor sees no difference.
// Where namespaces are not permitted *note says why, and the extension runs
// in a session of its own under a subreaper that kills whatever it orphaned
// when it ends (a daemon's double fork is still caught; kill(-1) is not).
void isolate_pids(std::string* note);

}  // namespace torchabi::runtime_driver
