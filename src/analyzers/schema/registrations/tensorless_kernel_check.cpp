// schema-tensorless-backend-kernel: an operator whose schema takes no Tensor,
// registered only under keys the dispatcher cannot reach for it.
//
// What PyTorch does (aten/src/ATen/core/dispatch/DispatchKeyExtractor.h,
// OperatorEntry.cpp, c10/core/impl/LocalDispatchKeySet.h):
//  - The dispatch key set of a call is the union of the key sets of its
//    dispatch arguments, which are exactly the arguments of type Tensor,
//    Tensor?, Tensor[] and Tensor?[] (DispatchKeyExtractor::isDispatchType).
//    Device, ScalarType, Layout, `Tensor[]?` and everything else add nothing.
//    Unboxed C++ calls also add the key set of a Generator argument; boxed
//    calls (Python, torch.ops, the stable ABI's dispatcher calls) do not.
//  - To that the thread-local included set is added, by default BackendSelect
//    and ADInplaceOrView, both fallthrough unless the op has its own kernel
//    there. With no dispatch argument nothing else is left: the call lands on
//    the Undefined entry of the op's table, which only the
//    CompositeExplicitAutogradNonFunctional, CompositeExplicitAutograd and
//    CompositeImplicitAutograd kernels fill (catch-all registrations, m.impl
//    outside an _IMPL block, m.def(schema, fn), CatchAll, are
//    CompositeImplicitAutograd). A CPU, CUDA, Meta, PrivateUse1 or Autograd
//    kernel is never chosen: "There were no tensor arguments to this function
//    ..., but no fallback function is registered for schema ns::op".
#include <set>
#include <string>
#include <vector>

#include "analyzers/schema/registrations/check_context.h"

namespace torchabi::schema {

namespace {

// Keys whose kernel a call without dispatch arguments reaches: those that
// fill the Undefined entry, the legacy names of the catch-all, and the keys of
// the default thread-local included set.
const std::set<std::string>& keys_reached_without_tensors() {
  static const std::set<std::string> keys = {
      "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutograd",
      "CatchAll", "Undefined", "BackendSelect", "ADInplaceOrView"};
  return keys;
}

bool is_tensor(const Type& t) { return t.is_base(BaseType::Tensor); }

// DispatchKeyExtractor::isDispatchType: Tensor, Tensor?, Tensor[] (T[N] too), Tensor?[].
// A Union naming Tensor may be Optional[Tensor] to PyTorch: counted, so as
// not to report what might dispatch.
bool carries_dispatch_keys(const Type& t) {
  if (is_tensor(t)) return true;
  if (t.is_optional()) return is_tensor(t.element());
  if (t.is_list()) return is_tensor(t.element()) || (t.element().is_optional() && is_tensor(t.element().element()));
  if (t.kind == TypeKind::Union) return t.mentions(BaseType::Tensor);
  return false;
}

bool reaches_without_tensors(const RegistrationContext& ctx, const ImplEntry& i) {
  // m.impl in a TORCH_LIBRARY / _FRAGMENT block: a catch-all kernel.
  if (i.block->kind != BlockKind::Impl) return true;
  const std::string& key = i.block->dispatch_key;
  // A key not read, or not a key (schema-unknown-dispatch-key): not judged.
  if (key.empty() || !ctx.env.dispatch_keys.count(key)) return true;
  return keys_reached_without_tensors().count(key) > 0;
}

std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k)
    out += (k == 0 ? "" : k + 1 == items.size() ? " and " : ", ") + items[k];
  return out;
}

void tensorless_op(RegistrationContext& ctx, const DefEntry& d, const std::vector<const ImplEntry*>& impls) {
  std::vector<std::string> keys;
  for (const ImplEntry* i : impls) {
    bool seen = false;
    for (const auto& k : keys) seen = seen || k == i->block->dispatch_key;
    if (!seen) keys.push_back(i->block->dispatch_key);
  }
  const ImplEntry& first = *impls.front();
  const std::string& ns = d.block->ns;
  const std::string prefix = first.block->stable ? "STABLE_" : "";

  std::vector<std::string> device_like, not_dispatching;
  bool generator = false;
  for (const Argument& a : d.schema.arguments) {
    const Type& t = a.type.strip_optional();
    if (t.is_base(BaseType::Generator)) generator = true;
    if (t.is_base(BaseType::Device) || t.is_base(BaseType::ScalarType) || t.is_base(BaseType::Layout))
      device_like.push_back("'" + a.name + "'");
    else if (a.type.mentions(BaseType::Tensor))
      not_dispatching.push_back("'" + describe_type(a.type) + " " + a.name + "'");
  }

  findings::Finding f;
  f.rule = "schema-tensorless-backend-kernel";
  f.location = first.impl->name.start;
  f.message = "'" + d.qualified + "' takes no Tensor, so the dispatcher never reaches its " + listed(keys) +
              " kernel" + (keys.size() > 1 ? "s" : "");
  f.help = "register the kernel under CompositeExplicitAutograd (" + prefix + "TORCH_LIBRARY_IMPL(" + ns +
           ", CompositeExplicitAutograd, m)), which runs whatever the device; a kernel that must run on one device "
           "can take the device as an argument and choose inside";
  f.notes.push_back("an operator without a Tensor, Tensor?, Tensor[] or Tensor?[] argument has no dispatch key: the call "
                    "finds only CompositeExplicitAutograd, CompositeImplicitAutograd (catch-all) or BackendSelect "
                    "kernels and otherwise fails with \"There were no tensor arguments to this function (e.g., you "
                    "passed an empty list of Tensors), but no fallback function is registered for schema " +
                    d.qualified + "\"");
  if (!device_like.empty())
    f.notes.push_back(listed(device_like) + " do" + (device_like.size() == 1 ? "es" : "") +
                      " not select a kernel: Device, ScalarType and Layout arguments carry no dispatch key (ATen's "
                      "factory functions pick the backend in a BackendSelect kernel)");
  if (!not_dispatching.empty())
    f.notes.push_back(listed(not_dispatching) + " carr" + (not_dispatching.size() == 1 ? "ies" : "y") +
                      " no dispatch key: only Tensor, Tensor?, Tensor[] and Tensor?[] arguments do");
  if (generator) {
    // Unboxed C++ calls with a Generator dispatch on its device; Python and
    // the stable ABI call boxed and do not.
    f.severity = findings::Severity::Warning;
    f.notes.push_back("a Generator argument selects its device's kernel only in an unboxed C++ call "
                      "(TypedOperatorHandle::call); calls from Python (torch.ops) and through the stable ABI are "
                      "boxed, see no key and fail");
  }
  for (size_t k = 1; k < impls.size(); ++k)
    f.notes.push_back(impls[k]->block->dispatch_key + " kernel registered at " + impls[k]->impl->name.start.display());
  f.notes.push_back("defined at " + d.def->schema.start.display());
  partial_view(ctx, f, "composite kernel");
  if (unread_in(ctx, ns, false)) unread(f, ns, "m.impl");
  ctx.report(std::move(f));
}

}  // namespace

void check_tensorless_kernels(RegistrationContext& ctx) {
  for (const DefEntry& d : ctx.index.defs()) {
    if (!d.has_schema || d.schema.is_vararg || d.def->kernel) continue;  // m.def(schema, fn): a catch-all kernel
    bool dispatches = false;
    for (const Argument& a : d.schema.arguments) dispatches = dispatches || carries_dispatch_keys(a.type);
    if (dispatches) continue;
    // A kernel registered from Python may be under any key.
    if (PythonRegistrations::names(ctx.env.python.implemented_ops, d.qualified)) continue;
    std::vector<const ImplEntry*> impls = ctx.index.impls_of(d.qualified);
    if (impls.empty()) continue;  // schema-def-without-impl
    bool reached = false;
    for (const ImplEntry* i : impls) reached = reached || reaches_without_tensors(ctx, *i);
    if (!reached) tensorless_op(ctx, d, impls);
  }
}

}  // namespace torchabi::schema
