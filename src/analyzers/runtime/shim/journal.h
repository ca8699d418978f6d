// What an extension did wrong while calling into the runtime, as it happened.
// Shim functions cannot throw across the C ABI, so they record here and
// return the error code; the driver drains the journal after loading and after
// every kernel call and turns the entries into findings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace torchabi::runtime {

enum class EventKind {
  Unimplemented,    // a stable C function (or ATen op) the runtime does not implement
  DoubleRelease,    // a handle released a second time
  UseAfterRelease,  // a released handle passed to a shim function
  InvalidHandle,    // a value that was never a handle passed as one
  ShimError,        // a shim function rejected its arguments (the extension gets code 1)
  Warning,          // aoti_torch_warn / TORCH_WARN
  Registration,     // a library registration PyTorch would reject
  // Stack protocol of a boxed kernel call (function = the op's name):
  MissingReturn,    // a return slot the kernel did not write
  ExtraReturn,      // a slot past the schema's returns that the kernel overwrote
  ReturnType,       // a return slot that does not hold a value of the schema's type
  Leak,             // a handle the kernel neither released nor returned
  InplaceAlias,     // a Tensor(a!) return that is not its input
  Unconvertible,    // an op whose schema has a type without a StableIValue conversion
};

struct Event {
  EventKind kind = EventKind::ShimError;
  std::string function;  // the shim function (or "aten::op" for dispatcher calls)
  std::string detail;    // one sentence
  uint64_t count = 1;    // identical events are merged
};

// Thread-safe; identical (kind, function, detail) entries are merged with a count.
void record(EventKind kind, const std::string& function, const std::string& detail);
void record_unimplemented(const char* function);
std::vector<Event> drain_events();

// The message torch_exception_get_what returns: the last failure in this thread.
void set_last_error(const std::string& message);
const std::string& last_error();

}  // namespace torchabi::runtime
