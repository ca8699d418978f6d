// Every handle the runtime ever hands out (tensors, lists, strings), with who
// created it and whether it was released. Records are never freed while the
// process lives: a released handle stays recognisable, so a second release or
// a later use is reported precisely instead of corrupting memory, and a
// pointer that was never a handle is told apart from a stale one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/abi_types.h"
#include "analyzers/runtime/shim/tensor.h"

namespace torchabi::runtime {

enum class HandleKind { Tensor, List, String };

const char* to_string(HandleKind k);

struct HandleRecord {
  HandleKind kind = HandleKind::Tensor;
  uint64_t id = 0;
  bool alive = true;
  uint64_t frame = 0;        // call frame that created it; 0 outside any kernel call
  std::string origin;        // "argument 'x' of myops::add", "aoti_torch_empty_strided"
  std::string released_by;   // the function that released it
  Tensor tensor;             // kind Tensor (dropped on release, as ATen drops its reference)
  std::vector<StableIValue> items;  // kind List
  std::string text;          // kind String

  // "tensor handle #3 (argument 'x' of myops::add, float32[2, 3])"
  std::string describe() const;
};

// Creation. `origin` says who made the handle, for messages about it later.
AtenTensorHandle new_tensor_handle(Tensor t, const std::string& origin);
StableListHandle new_list_handle(std::vector<StableIValue> items, const std::string& origin);
StringHandle new_string_handle(std::string text, const std::string& origin);

// Lookup for a shim function `fn` that was passed `h`: null (and a journal
// entry naming `fn`) when `h` is not a live handle of that kind.
HandleRecord* use_handle(const void* h, HandleKind kind, const char* fn);
TensorImpl* use_tensor(AtenTensorHandle h, const char* fn);

// Release by `fn`; false (and a journal entry) on a double release or a
// non-handle. Releasing a tensor handle drops its reference to the tensor.
bool release_handle(const void* h, HandleKind kind, const char* fn);

// Inspection without journal entries (the driver's protocol checks).
HandleRecord* find_handle(uint64_t bits);

// Call frames: handles created while a frame is open belong to it, so the
// handles a kernel call leaves alive can be listed when it returns.
uint64_t open_frame();
void close_frame(uint64_t frame);
uint64_t current_frame();
std::vector<HandleRecord*> live_handles_of(uint64_t frame);

}  // namespace torchabi::runtime
