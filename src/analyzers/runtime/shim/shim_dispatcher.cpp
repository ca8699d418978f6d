// aoti_torch_call_dispatcher / torch_call_dispatcher: the extension hands the
// runtime a stack of StableIValues for an op it names; like libtorch, the
// runtime takes ownership of the arguments, runs the op (a reference ATen op,
// or one of the extension's own kernels) and writes new owning returns.
#include "analyzers/runtime/shim/aten_ops.h"
#include "analyzers/runtime/shim/codec.h"
#include "analyzers/runtime/shim/export.h"
#include "analyzers/runtime/shim/invoke.h"
#include "analyzers/runtime/shim/journal.h"
#include "analyzers/runtime/shim/library.h"
#include "analyzers/runtime/shim/op_table.h"

namespace torchabi::runtime {
namespace {

AOTITorchError call_dispatcher(const char* op_name, const char* overload_name, StableIValue* stack, const char* fn) {
  const std::string name = op_name ? op_name : "";
  const std::string overload = overload_name ? overload_name : "";
  const std::string qualified = name + (overload.empty() ? "" : "." + overload);
  bool is_aten = false;
  const OpSignature* sig = find_signature(name, overload, &is_aten);
  aten::BoxedAten aten_impl = is_aten && sig ? aten::find_boxed(qualified) : nullptr;
  if (!sig || (is_aten && !aten_impl)) {
    record(EventKind::Unimplemented, fn,
           "called " + qualified + " through " + fn + ", which the reference runtime does not implement");
    set_last_error("Could not find schema for " + qualified);
    return kFailure;
  }
  if (!stack) {
    set_last_error(std::string(fn) + ": null stack");
    return kFailure;
  }
  const std::string consumer = std::string(fn) + "(" + qualified + ")";
  std::vector<Value> args;
  for (size_t i = 0; i < sig->args.size(); ++i) {
    Value v;
    std::string problem;
    if (!decode(stack[i], sig->args[i].type, consumer.c_str(), v, problem)) {
      record(EventKind::InvalidHandle, fn,
             "stack slot " + std::to_string(i) + " for argument '" + sig->args[i].name + "' of " + qualified + " " +
                 problem);
      set_last_error(qualified + ": bad argument '" + sig->args[i].name + "'");
      return kFailure;
    }
    args.push_back(std::move(v));
  }

  std::vector<Value> results;
  try {
    if (is_aten) {
      results = aten_impl(args);
    } else {
      Registrations regs = registrations();
      const ImplRecord* impl = resolve_cpu_kernel(regs, *sig);
      if (!impl) {
        set_last_error("Could not run '" + qualified + "' with arguments from the 'CPU' backend");
        record(EventKind::ShimError, fn, "called " + qualified + ", which has no kernel a CPU call reaches");
        return kFailure;
      }
      CallOutcome o = invoke_kernel(impl->fn, *sig, args);
      if (o.exception) throw std::runtime_error(*o.exception);
      if (!o.outputs_valid) throw std::runtime_error(qualified + " did not return its declared outputs");
      results = std::move(o.outputs);
    }
  } catch (const std::exception& e) {
    set_last_error(e.what());
    record(EventKind::ShimError, fn, qualified + " failed: " + e.what());
    return kFailure;
  }
  const std::string origin = "returned by " + qualified + " through " + fn;
  for (size_t j = 0; j < sig->returns.size() && j < results.size(); ++j)
    stack[j] = encode(results[j], sig->returns[j].type, origin);
  return kSuccess;
}

}  // namespace
}  // namespace torchabi::runtime

using namespace torchabi::runtime;

TORCHABI_SHIM AOTITorchError aoti_torch_call_dispatcher(const char* opName, const char* overloadName,
                                                         StableIValue* stack) {
  return call_dispatcher(opName, overloadName, stack, "aoti_torch_call_dispatcher");
}

TORCHABI_SHIM AOTITorchError torch_call_dispatcher(const char* opName, const char* overloadName, StableIValue* stack,
                                                    uint64_t extension_build_version) {
  return call_dispatcher(opName, overloadName, stack, "torch_call_dispatcher");
}
