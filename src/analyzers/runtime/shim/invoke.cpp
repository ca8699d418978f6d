#include "analyzers/runtime/shim/invoke.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

#include "analyzers/runtime/shim/codec.h"
#include "analyzers/runtime/shim/journal.h"
#include "analyzers/runtime/shim/registry.h"

namespace torchabi::runtime {
namespace {

// One guarded arena per nesting depth, reused across calls.
struct Arena {
  std::byte* base = nullptr;
  size_t rw_bytes = 0;
};

size_t page_size() {
  static const size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

StableIValue* stack_for(size_t depth, size_t slots) {
  static Arena arenas[kMaxStackFrames];
  Arena& a = arenas[depth];
  size_t need = std::max<size_t>(slots * sizeof(StableIValue), 1);
  if (a.base == nullptr || a.rw_bytes < need) {
    if (a.base) munmap(a.base, a.rw_bytes + page_size());
    size_t rw = (need + page_size() - 1) / page_size() * page_size();
    void* p = mmap(nullptr, rw + page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("cannot map a kernel stack");
    mprotect(static_cast<std::byte*>(p) + rw, page_size(), PROT_NONE);
    a.base = static_cast<std::byte*>(p);
    a.rw_bytes = rw;
  }
  return reinterpret_cast<StableIValue*>(a.base + a.rw_bytes) - slots;
}

std::string type_name(const ArgDesc& a) { return a.type.spelling; }

std::string arg_label(const OpSignature& sig, size_t i) {
  return "argument '" + sig.args[i].name + "' of " + sig.qualified();
}

bool has_handle_semantics(const TypeDesc& t) {
  return t.kind == TypeKind::Tensor || t.kind == TypeKind::List || t.kind == TypeKind::String ||
         t.kind == TypeKind::Optional;
}

void check_inplace_aliases(const OpSignature& sig, const std::vector<Value>& args, const CallOutcome& out) {
  for (size_t j = 0; j < sig.returns.size() && j < out.outputs.size(); ++j) {
    const ArgDesc& ret = sig.returns[j];
    if (!ret.is_write || ret.alias_set.empty() || out.outputs[j].kind != Value::Kind::Tensor) continue;
    for (size_t i = 0; i < sig.args.size(); ++i) {
      if (sig.args[i].alias_set != ret.alias_set || args[i].kind != Value::Kind::Tensor) continue;
      const Tensor& in = args[i].tensor;
      const Tensor& res = out.outputs[j].tensor;
      bool aliases = in && res && in->storage && in->storage == res->storage && in->data() == res->data();
      bool meta_same = in && res && !in->storage && in.get() == res.get();
      if (!aliases && !meta_same)
        record(EventKind::InplaceAlias, sig.qualified(),
               "return " + std::to_string(j) + " is declared Tensor(" + ret.alias_set + "!) and must be argument '" +
                   sig.args[i].name + "' itself, but the kernel returned " +
                   (res ? "a different tensor (" + res->describe() + ")" : std::string("no tensor")));
    }
  }
}

// What libtorch's own checks reject while it reads a return back into an
// IValue: it raises, so the caller sees an error rather than a value.
std::optional<std::string> libtorch_rejects(const Value& v, const TypeDesc& t) {
  if (v.kind == Value::Kind::Device && (v.device_index < -128 || v.device_index > 127))
    return "Device index " + std::to_string(v.device_index) + " is out of range for int8_t [-128, 127]";
  if (v.kind == Value::Kind::List && !t.element.empty())
    for (const Value& item : v.list)
      if (auto why = libtorch_rejects(item, t.elem())) return why;
  return std::nullopt;
}

}  // namespace

ActiveStacks& active_stacks() {
  static ActiveStacks s;
  return s;
}

CallOutcome invoke_kernel(BoxedKernel fn, const OpSignature& sig, const std::vector<Value>& args) {
  CallOutcome out;
  const size_t n_args = sig.args.size(), n_rets = sig.returns.size();
  const size_t n = std::max(n_args, n_rets);
  ActiveStacks& active = active_stacks();
  const size_t depth = active.depth;
  if (depth >= kMaxStackFrames) throw std::runtime_error("kernel calls nested too deeply");
  StableIValue* stack = stack_for(depth, n);

  const uint64_t frame = open_frame();
  std::vector<StableIValue> original(n, kUnwrittenSlot);
  try {
    for (size_t i = 0; i < n_args; ++i) original[i] = encode(args[i], sig.args[i].type, arg_label(sig, i));
  } catch (...) {
    for (HandleRecord* rec : live_handles_of(frame)) release_handle(rec, rec->kind, "torchabi (a failed call)");
    close_frame(frame);
    throw;
  }
  std::memcpy(stack, original.data(), n * sizeof(StableIValue));

  StackFrameInfo& info = active.frames[depth];
  info.stack = reinterpret_cast<uintptr_t>(stack);
  info.guard_begin = reinterpret_cast<uintptr_t>(stack + n);
  info.guard_end = info.guard_begin + page_size();
  info.num_args = n_args;
  info.num_outputs = n_rets;
  std::snprintf(info.op, sizeof info.op, "%s", sig.qualified().c_str());
  active.depth = depth + 1;
  try {
    fn(stack, n_args, n_rets);
    out.returned = true;
  } catch (const std::exception& e) {
    out.exception = e.what();
    out.thrown = current_thrown_type();
    out.thrown_is_std = true;
  } catch (...) {
    out.exception = "";
    out.thrown = current_thrown_type();
  }
  active.depth = depth;
  std::vector<StableIValue> after(stack, stack + n);
  const std::string op = sig.qualified();

  // Slots past the returns that the kernel overwrote: it believes the op has
  // more returns than its schema. Their handles are reported here, not as leaks.
  std::set<uint64_t> extra_handles;
  if (out.returned) {
    for (size_t i = n_rets; i < n_args; ++i) {
      if (after[i] == original[i]) continue;
      std::string what = to_hex(after[i]);
      if (HandleRecord* rec = find_handle(after[i])) {
        what = rec->describe();
        extra_handles.insert(after[i]);
      }
      record(EventKind::ExtraReturn, op,
             "the kernel wrote stack slot " + std::to_string(i) + " (" + what + "), but the schema declares " +
                 std::to_string(n_rets) + " return" + (n_rets == 1 ? "" : "s") + ": libtorch never reads it");
    }
  }

  if (out.returned) {
    out.outputs_valid = true;
    for (size_t j = 0; j < n_rets; ++j) {
      const ArgDesc& ret = sig.returns[j];
      const std::string label = "return " + std::to_string(j) + " (" + type_name(ret) + ")";
      if (j >= n_args && after[j] == kUnwrittenSlot) {
        record(EventKind::MissingReturn, op, label + " was not written: the schema declares " +
                                                 std::to_string(n_rets) + " returns");
        out.outputs_valid = false;
        continue;
      }
      if (j < n_args && after[j] == original[j] && has_handle_semantics(sig.args[j].type)) {
        HandleRecord* rec = find_handle(after[j]);
        if (rec && !rec->alive) {
          record(EventKind::MissingReturn, op,
                 label + " was not written: its slot still holds the handle of argument '" + sig.args[j].name +
                     "', which the kernel already released");
          out.outputs_valid = false;
          continue;
        }
      }
      Value v;
      std::string problem;
      if (!decode(after[j], ret.type, "libtorch (reading the kernel's returns)", v, problem)) {
        // A handle left in a mistyped slot is never released; say so here, not as a leak.
        if (HandleRecord* rec = find_handle(after[j]); rec && rec->alive && rec->frame == frame) {
          extra_handles.insert(after[j]);
          problem += " (which is therefore never released)";
        }
        record(EventKind::ReturnType, op, label + " " + problem);
        out.outputs_valid = false;
        continue;
      }
      if (auto why = libtorch_rejects(v, ret.type)) {
        out.exception = *why;  // libtorch's TORCH_CHECK raises c10::Error
        out.thrown = {"c10::Error", {"c10::Error", "std::exception"}};
        out.thrown_is_std = true;
        out.outputs_valid = false;
        continue;
      }
      out.outputs.push_back(std::move(v));
    }
    if (!out.outputs_valid) out.outputs.clear();
  }

  for (HandleRecord* rec : live_handles_of(frame)) {
    if (extra_handles.count(reinterpret_cast<uint64_t>(rec))) {
      release_handle(rec, rec->kind, "torchabi (after an extra return)");
      continue;
    }
    bool input = rec->origin.rfind("argument '", 0) == 0;
    record(EventKind::Leak, op,
           input ? "the kernel never released " + rec->describe() +
                       ": a boxed kernel owns its inputs and must steal and release every one"
                 : rec->describe() + " was neither released nor returned");
    release_handle(rec, rec->kind, "torchabi (cleaning up a leak)");
  }
  close_frame(frame);
  if (out.outputs_valid) check_inplace_aliases(sig, args, out);
  return out;
}

}  // namespace torchabi::runtime
