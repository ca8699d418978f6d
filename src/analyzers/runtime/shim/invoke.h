// Calls a boxed kernel the way libtorch's StableIValueBoxedKernel does and
// checks the stack protocol around it: the stack is max(num_args,
// num_outputs) slots with the arguments in order, placed right before an
// inaccessible guard page so any access past its end faults at a known
// address; afterwards exactly the schema's returns must have been written,
// with the schema's types, and every handle the call created or received
// must have been released or returned exactly once.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/abi_types.h"
#include "analyzers/runtime/shim/thrown_type.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime {

struct CallOutcome {
  bool returned = false;                 // the kernel returned (no exception)
  std::optional<std::string> exception;  // what() of an exception that escaped it (empty: not a std::exception)
  ThrownType thrown;                     // its dynamic type, when one escaped
  bool thrown_is_std = false;            // it derives from std::exception
  bool outputs_valid = false;            // every return slot decoded
  std::vector<Value> outputs;
};

// Protocol problems are recorded in the journal (function = sig.qualified()).
CallOutcome invoke_kernel(BoxedKernel fn, const OpSignature& sig, const std::vector<Value>& args);

// The stacks of kernel calls in progress, for the driver's fault handler:
// an address in [guard_begin, guard_end) is an access past the end of the
// stack that begins at `stack`. Read from a signal handler: plain data only.
struct StackFrameInfo {
  uintptr_t stack = 0;
  uintptr_t guard_begin = 0;
  uintptr_t guard_end = 0;
  uint64_t num_args = 0;
  uint64_t num_outputs = 0;
  char op[160] = {};
};
inline constexpr size_t kMaxStackFrames = 16;
struct ActiveStacks {
  volatile size_t depth = 0;
  StackFrameInfo frames[kMaxStackFrames];
};
ActiveStacks& active_stacks();

// The value the runtime puts in slots past the arguments before a call;
// finding it afterwards means the kernel did not write that return.
inline constexpr StableIValue kUnwrittenSlot = 0x7ab1e5107c0ffee5ull;

}  // namespace torchabi::runtime
