#include "analyzers/runtime/shim/registry.h"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "analyzers/runtime/shim/invoke.h"
#include "analyzers/runtime/shim/journal.h"

namespace torchabi::runtime {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<uintptr_t, HandleRecord*> records;
  uint64_t next_id = 1;
  std::vector<uint64_t> frames;  // open frames, innermost last
  // Handles created in each open frame, so a call's leak check does not scan
  // every handle the process ever made.
  std::unordered_map<uint64_t, std::vector<HandleRecord*>> created_in;
  uint64_t next_frame = 1;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: handles outlive static destruction
  return *r;
}

template <class Handle>
Handle add(HandleRecord* rec) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  rec->id = r.next_id++;
  rec->frame = r.frames.empty() ? 0 : r.frames.back();
  r.records.emplace(reinterpret_cast<uintptr_t>(rec), rec);
  if (rec->frame) r.created_in[rec->frame].push_back(rec);
  return reinterpret_cast<Handle>(rec);
}

std::string hex(const void* p) {
  std::ostringstream os;
  os << p;
  return os.str();
}

}  // namespace

const char* to_string(HandleKind k) {
  switch (k) {
    case HandleKind::Tensor: return "tensor";
    case HandleKind::List: return "list";
    case HandleKind::String: return "string";
  }
  return "handle";
}

std::string HandleRecord::describe() const {
  std::string s = std::string(to_string(kind)) + " handle #" + std::to_string(id) + " (" + origin;
  if (kind == HandleKind::Tensor && tensor) s += ", " + tensor->describe();
  if (kind == HandleKind::List) s += ", " + std::to_string(items.size()) + " items";
  return s + ")";
}

AtenTensorHandle new_tensor_handle(Tensor t, const std::string& origin) {
  auto* rec = new HandleRecord;
  rec->kind = HandleKind::Tensor;
  rec->tensor = std::move(t);
  rec->origin = origin;
  return add<AtenTensorHandle>(rec);
}

StableListHandle new_list_handle(std::vector<StableIValue> items, const std::string& origin) {
  auto* rec = new HandleRecord;
  rec->kind = HandleKind::List;
  rec->items = std::move(items);
  rec->origin = origin;
  return add<StableListHandle>(rec);
}

StringHandle new_string_handle(std::string text, const std::string& origin) {
  auto* rec = new HandleRecord;
  rec->kind = HandleKind::String;
  rec->text = std::move(text);
  rec->origin = origin;
  return add<StringHandle>(rec);
}

HandleRecord* find_handle(uint64_t bits) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.records.find(static_cast<uintptr_t>(bits));
  return it == r.records.end() ? nullptr : it->second;
}

HandleRecord* use_handle(const void* h, HandleKind kind, const char* fn) {
  HandleRecord* rec = find_handle(reinterpret_cast<uintptr_t>(h));
  if (!rec || rec->kind != kind) {
    std::string what = h == nullptr ? "a null " + std::string(to_string(kind)) + " handle"
                                    : hex(h) + ", which is not a " + to_string(kind) + " handle";
    if (reinterpret_cast<uintptr_t>(h) == kUnwrittenSlot)
      what += " (it is the marker torchabi puts in stack slots past the arguments: the kernel read a stack slot "
              "at or beyond num_args)";
    if (rec) what += " (it is " + rec->describe() + ")";
    record(EventKind::InvalidHandle, fn, std::string("passed ") + what);
    set_last_error(std::string(fn) + ": invalid " + to_string(kind) + " handle");
    return nullptr;
  }
  if (!rec->alive) {
    record(EventKind::UseAfterRelease, fn,
           "used " + rec->describe() + " after " + rec->released_by + " released it");
    set_last_error(std::string(fn) + ": " + to_string(kind) + " handle used after release");
    return nullptr;
  }
  return rec;
}

TensorImpl* use_tensor(AtenTensorHandle h, const char* fn) {
  HandleRecord* rec = use_handle(h, HandleKind::Tensor, fn);
  return rec ? rec->tensor.get() : nullptr;
}

bool release_handle(const void* h, HandleKind kind, const char* fn) {
  HandleRecord* rec = find_handle(reinterpret_cast<uintptr_t>(h));
  if (rec && rec->kind == kind && !rec->alive) {
    record(EventKind::DoubleRelease, fn,
           "released " + rec->describe() + " a second time (" + rec->released_by + " released it first)");
    set_last_error(std::string(fn) + ": handle released twice");
    return false;
  }
  if (!use_handle(h, kind, fn)) return false;
  rec->alive = false;
  rec->released_by = fn;
  rec->tensor.reset();
  rec->items.clear();
  rec->items.shrink_to_fit();
  return true;
}

uint64_t open_frame() {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.frames.push_back(r.next_frame++);
  return r.frames.back();
}

void close_frame(uint64_t frame) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.frames.erase(std::remove(r.frames.begin(), r.frames.end(), frame), r.frames.end());
  r.created_in.erase(frame);
}

uint64_t current_frame() {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.frames.empty() ? 0 : r.frames.back();
}

std::vector<HandleRecord*> live_handles_of(uint64_t frame) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<HandleRecord*> out;
  auto it = r.created_in.find(frame);
  if (it == r.created_in.end()) return out;
  for (HandleRecord* rec : it->second)
    if (rec->alive) out.push_back(rec);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->id < b->id; });
  return out;
}

}  // namespace torchabi::runtime
