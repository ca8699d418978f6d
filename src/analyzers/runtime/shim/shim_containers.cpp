// StableList and String handles, and heap StableIValues for optionals: the
// containers StableIValue uses for values that do not fit in 64 bits.
#include "analyzers/runtime/shim/export.h"
#include "analyzers/runtime/shim/journal.h"
#include "analyzers/runtime/shim/registry.h"

using namespace torchabi::runtime;

namespace {

AOTITorchError out_of_range(const char* fn, size_t index, size_t size) {
  std::string msg = std::string(fn) + ": index " + std::to_string(index) + " is out of range for a list of " +
                    std::to_string(size) + " items";
  record(EventKind::ShimError, fn, msg);
  set_last_error(msg);
  return kFailure;
}

}  // namespace

TORCHABI_SHIM AOTITorchError torch_new_list_reserve_size(size_t size, StableListHandle* ret) {
  if (!ret) return kFailure;
  std::vector<StableIValue> items;
  items.reserve(size);
  *ret = new_list_handle(std::move(items), "torch_new_list_reserve_size");
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_list_size(StableListHandle list_handle, size_t* size) {
  HandleRecord* rec = use_handle(list_handle, HandleKind::List, "torch_list_size");
  if (!rec || !size) return kFailure;
  *size = rec->items.size();
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_list_get_item(StableListHandle list_handle, size_t index, StableIValue* element) {
  HandleRecord* rec = use_handle(list_handle, HandleKind::List, "torch_list_get_item");
  if (!rec || !element) return kFailure;
  if (index >= rec->items.size()) return out_of_range("torch_list_get_item", index, rec->items.size());
  *element = rec->items[index];
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_list_set_item(StableListHandle list_handle, size_t index, StableIValue element) {
  HandleRecord* rec = use_handle(list_handle, HandleKind::List, "torch_list_set_item");
  if (!rec) return kFailure;
  if (index >= rec->items.size()) return out_of_range("torch_list_set_item", index, rec->items.size());
  rec->items[index] = element;
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_list_push_back(StableListHandle list_handle, StableIValue element) {
  HandleRecord* rec = use_handle(list_handle, HandleKind::List, "torch_list_push_back");
  if (!rec) return kFailure;
  rec->items.push_back(element);
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_delete_list(StableListHandle list_handle) {
  return release_handle(list_handle, HandleKind::List, "torch_delete_list") ? kSuccess : kFailure;
}

TORCHABI_SHIM AOTITorchError torch_new_string_handle(const char* data, size_t length, StringHandle* handle) {
  if (!handle || (!data && length)) return kFailure;
  *handle = new_string_handle(std::string(data ? data : "", length), "torch_new_string_handle");
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_delete_string(StringHandle handle) {
  return release_handle(handle, HandleKind::String, "torch_delete_string") ? kSuccess : kFailure;
}

TORCHABI_SHIM AOTITorchError torch_string_length(StringHandle handle, size_t* length) {
  HandleRecord* rec = use_handle(handle, HandleKind::String, "torch_string_length");
  if (!rec || !length) return kFailure;
  *length = rec->text.size();
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_string_c_str(StringHandle handle, const char** data) {
  HandleRecord* rec = use_handle(handle, HandleKind::String, "torch_string_c_str");
  if (!rec || !data) return kFailure;
  *data = rec->text.c_str();
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_new_stable_ivalue(StableIValue** ret_value) {
  if (!ret_value) return kFailure;
  *ret_value = new StableIValue(0);
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_delete_stable_ivalue(StableIValue* value) {
  if (!value) {
    set_last_error("torch_delete_stable_ivalue: deleting a nullptr is invalid");
    return kFailure;
  }
  delete value;
  return kSuccess;
}
