// Helpers shared by the shim entry points: nothing may throw across the C
// ABI, so each body runs under `guarded`, which turns an exception into the
// error code, the thread's last-error message and a journal entry.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/abi_types.h"
#include "analyzers/runtime/shim/journal.h"
#include "analyzers/runtime/shim/registry.h"

namespace torchabi::runtime {

// Thrown after the problem was journalled already (a bad handle).
struct Journalled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class F>
AOTITorchError guarded(const char* fn, F&& body) {
  try {
    body();
    return kSuccess;
  } catch (const Journalled&) {
    return kFailure;
  } catch (const std::exception& e) {
    set_last_error(e.what());
    record(EventKind::ShimError, fn, std::string(fn) + " failed: " + e.what());
    return kFailure;
  }
}

// The tensor behind `h` for `fn`; throws (turned into an error code by
// `guarded`) when `h` is not a live tensor handle, after journalling why.
inline Tensor tensor_arg(AtenTensorHandle h, const char* fn) {
  HandleRecord* rec = use_handle(h, HandleKind::Tensor, fn);
  if (!rec) throw Journalled("invalid tensor handle");
  return rec->tensor;
}

inline std::vector<int64_t> int_array(const int64_t* p, int64_t n) {
  if (n < 0) throw std::invalid_argument("negative array length " + std::to_string(n));
  if (n > 0 && !p) throw std::invalid_argument("null array pointer");
  return std::vector<int64_t>(p, p + n);
}

template <class T>
void require_out(T* p) {
  if (!p) throw std::invalid_argument("null output pointer");
}

}  // namespace torchabi::runtime
