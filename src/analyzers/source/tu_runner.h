// Runs work items in child processes, `jobs` at a time. A libclang crash
// (or any other) in one item takes down only its child: the item comes back
// as failed with the signal, the others are unaffected. Each child's result
// is a string written to a pipe; the parent never touches libclang state,
// but loads libclang before forking so that the children inherit it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::source {

struct IsolatedResult {
  bool ok = false;
  std::string output;  // what the work function returned
  std::string error;   // one line, when !ok
};

// A child that wrote its whole result is not waited for: it is reaped later,
// without blocking, while its address space is torn down.
// `jobs` 0 means one per available core. `while_waiting`, when set, runs once
// in the parent as soon as the first children are working: the parent is idle
// until they finish, so work it would do afterwards costs no time there. It
// must not throw (an exception from it is dropped).
std::vector<IsolatedResult> run_isolated(size_t count, unsigned jobs, const std::function<std::string(size_t)>& work,
                                         const std::function<void()>& while_waiting = {});

// What the parent is told while the items run (each hook optional; none may
// throw). `started` follows an item's fork, `finished` its result.
struct IsolatedHooks {
  std::function<void()> while_waiting;  // as above
  std::function<void(size_t index)> started;
  std::function<void(size_t index, const IsolatedResult&)> finished;
};
std::vector<IsolatedResult> run_isolated(size_t count, unsigned jobs, const std::function<std::string(size_t)>& work,
                                         const IsolatedHooks& hooks);

unsigned default_jobs();

// Bounds on one item (one translation unit): a hostile or enormous input
// costs at most this much, and the item comes back failed with the limit
// named while the others go on. Process-wide, set once by the command line
// (--tu-timeout, --tu-memory); 0 means unbounded. The defaults are well above
// what clang needs for the largest real TUs (CUDA with cutlass/cute: about
// 2 GiB of address space, under a minute).
struct IsolatedLimits {
  unsigned seconds = 600;
  unsigned long long memory_bytes = 8ull << 30;
};
// The memory limit a child runs under is the lower of memory_bytes and the
// address-space limit torchabi inherited (ulimit -v), which is never raised;
// an item that hits it names the limit and where it came from.
void set_isolated_limits(IsolatedLimits limits);
IsolatedLimits isolated_limits();

// Whether an item's error says it hit one of these limits (it was not
// analysed for that reason alone), rather than crashed or failed.
bool hit_a_limit(std::string_view error);

// Whether what LLVM wrote on stderr says an allocation failed ("LLVM ERROR:
// out of memory"): under the limit, that is the limit being hit.
bool llvm_ran_out_of_memory(std::string_view stderr_text);

// Called by run_isolated before it forks: how a thread that must not be
// running during a fork (one inside the dynamic loader, see
// libclang_warmup.h) is waited for, wherever the fork happens. One at a time;
// an empty function clears it.
void set_fork_barrier(std::function<void()> wait);

}  // namespace torchabi::source
