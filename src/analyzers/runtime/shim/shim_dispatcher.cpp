// aoti_torch_call_dispatcher / torch_call_dispatcher: the extension hands the
// runtime a stack of StableIValues for an op it names; like libtorch, the
// runtime takes ownership of the arguments, runs the op (a reference ATen op,
// or one of the extension's own kernels) and writes new owning returns.
//
// Ownership follows libtorch's order exactly, failures included:
//  1. the op's schema is looked up; an unknown op fails before any argument is
//     read, so the caller keeps every handle on its stack;
//  2. each argument is converted in order, and each converted one is taken
//     over (its handles released); a conversion that fails stops there, so the
//     arguments before it are consumed and those after it are not;
//  3. the op runs; if it fails, every argument is already consumed;
//  4. only a successful call writes the returns (stack[0..returns)).
// An ATen op the runtime has no reference implementation of still gets steps
// 1-2 (libtorch would run it), then fails as not implemented.
#include "analyzers/runtime/shim/aten_ops.h"
#include "analyzers/runtime/shim/codec.h"
#include "analyzers/runtime/shim/export.h"
#include "analyzers/runtime/shim/invoke.h"
#include "analyzers/runtime/shim/journal.h"
#include "analyzers/runtime/shim/library.h"
#include "analyzers/runtime/shim/op_table.h"

namespace torchabi::runtime {
namespace {

AOTITorchError fail(EventKind kind, const char* fn, const std::string& detail, const std::string& what) {
  record(kind, fn, detail);
  set_last_error(what);
  return kFailure;
}

// True when converting `bits` as `t` reaches a type libtorch cannot convert
// (Scalar, ...): None for an optional of it converts fine.
bool reaches_unconvertible(const TypeDesc& t, StableIValue bits) {
  if (t.kind == TypeKind::Unconvertible) return true;
  if (t.kind == TypeKind::Optional) return bits != 0 && t.elem().unconvertible() != nullptr;
  return t.unconvertible() != nullptr;
}

AOTITorchError call_dispatcher(const char* op_name, const char* overload_name, StableIValue* stack, const char* fn) {
  const std::string name = op_name ? op_name : "";
  const std::string overload = overload_name ? overload_name : "";
  const std::string qualified = name + (overload.empty() ? "" : "." + overload);
  bool is_aten = false;
  const OpSignature* sig = find_signature(name, overload, &is_aten);
  if (!sig) {
    const std::string what = "Could not find schema for " + qualified;
    if (name.rfind("aten::", 0) == 0)
      return fail(EventKind::ShimError, fn, "called " + qualified + ", but PyTorch has no such operator", what);
    return fail(EventKind::Unimplemented, fn,
                "called " + qualified + " through " + fn +
                    ", which is neither an op of the extension nor one the reference runtime knows",
                what);
  }
  if (!stack) return fail(EventKind::ShimError, fn, std::string(fn) + " was given a null stack", "null stack");

  const std::string consumer = std::string(fn) + "(" + qualified + ")";
  std::vector<Value> args;
  for (size_t i = 0; i < sig->args.size(); ++i) {
    const ArgDesc& arg = sig->args[i];
    if (reaches_unconvertible(arg.type, stack[i]))
      return fail(EventKind::ShimError, fn,
                  qualified + ": argument '" + arg.name + "' has type " + arg.type.spelling +
                      ", which libtorch cannot convert from a StableIValue (the call fails)",
                  "Not yet supported conversion from StableIValue to IValue for schema type: " +
                      arg.type.unconvertible()->spelling);
    Value v;
    std::string problem;
    if (!decode(stack[i], arg.type, consumer.c_str(), v, problem))
      return fail(EventKind::InvalidHandle, fn,
                  "stack slot " + std::to_string(i) + " for argument '" + arg.name + "' of " + qualified + " " + problem,
                  qualified + ": bad argument '" + arg.name + "'");
    args.push_back(std::move(v));
  }

  aten::BoxedAten aten_impl = is_aten ? aten::find_boxed(qualified) : nullptr;
  if (is_aten && !aten_impl)
    return fail(EventKind::Unimplemented, fn,
                "called " + qualified + " through " + fn +
                    ", which the reference runtime does not implement (it took over the arguments, as libtorch does)",
                qualified + " is not implemented by torchabi's reference runtime");

  std::vector<Value> results;
  try {
    if (is_aten) {
      results = aten_impl(args);
    } else {
      Registrations regs = registrations();
      const ImplRecord* impl = resolve_cpu_kernel(regs, *sig);
      if (!impl)
        return fail(EventKind::ShimError, fn, "called " + qualified + ", which has no kernel a CPU call reaches",
                    "Could not run '" + qualified + "' with arguments from the 'CPU' backend");
      CallOutcome o = invoke_kernel(impl->fn, *sig, args);
      if (o.exception)
        throw std::runtime_error(o.thrown_is_std ? *o.exception
                                                 : "an exception that is not a std::exception (" + o.thrown.name + ")");
      if (!o.outputs_valid) throw std::runtime_error(qualified + " did not return its declared outputs");
      results = std::move(o.outputs);
    }
  } catch (const std::exception& e) {
    return fail(EventKind::ShimError, fn, qualified + " failed: " + e.what(), e.what());
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
