#include "analyzers/runtime/shim/op_table.h"

#include <deque>
#include <map>
#include <mutex>

namespace torchabi::runtime {
namespace {

struct Table {
  std::mutex mutex;
  std::vector<OpSignature> aten;
  std::vector<OpSignature> extension;
  SchemaLookup lookup;
  // Looked-up schemas (nullopt: PyTorch has no such op); a deque keeps them
  // at stable addresses.
  std::map<std::string, const OpSignature*> looked_up;
  std::deque<OpSignature> looked_up_store;
};

Table& table() {
  static Table* t = new Table;
  return *t;
}

const OpSignature* find_in(const std::vector<OpSignature>& sigs, const std::string& name,
                           const std::string& overload) {
  for (const auto& s : sigs)
    if (s.ns + "::" + s.name == name && s.overload == overload) return &s;
  return nullptr;
}

}  // namespace

void set_aten_signatures(std::vector<OpSignature> sigs) {
  std::lock_guard<std::mutex> lock(table().mutex);
  table().aten = std::move(sigs);
}

void set_extension_signatures(std::vector<OpSignature> sigs) {
  std::lock_guard<std::mutex> lock(table().mutex);
  table().extension = std::move(sigs);
}

void set_schema_lookup(SchemaLookup lookup) {
  std::lock_guard<std::mutex> lock(table().mutex);
  table().lookup = std::move(lookup);
}

const OpSignature* find_signature(const std::string& name, const std::string& overload, bool* is_aten) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (auto* s = find_in(t.extension, name, overload)) {
    *is_aten = false;
    return s;
  }
  *is_aten = true;
  if (auto* s = find_in(t.aten, name, overload)) return s;
  if (!t.lookup) return nullptr;
  const std::string key = name + "." + overload;
  if (auto it = t.looked_up.find(key); it != t.looked_up.end()) return it->second;
  const OpSignature* found = nullptr;
  if (auto sig = t.lookup(name, overload)) {
    t.looked_up_store.push_back(std::move(*sig));
    found = &t.looked_up_store.back();
  }
  t.looked_up[key] = found;
  return found;
}

bool impl_matches(const ImplRecord& impl, const OpSignature& sig) {
  std::string name = impl.name;
  std::string ns = impl.ns;
  if (auto p = name.find("::"); p != std::string::npos) {
    ns = name.substr(0, p);
    name = name.substr(p + 2);
  }
  std::string overload;
  if (auto p = name.find('.'); p != std::string::npos) {
    overload = name.substr(p + 1);
    name = name.substr(0, p);
  }
  return ns == sig.ns && name == sig.name && overload == sig.overload;
}

const std::vector<std::string>& cpu_dispatch_order() {
  static const std::vector<std::string> order = {"CPU", "CompositeExplicitAutograd",
                                                 "CompositeExplicitAutogradNonFunctional",
                                                 "CompositeImplicitAutograd", ""};
  return order;
}

namespace {

// The last registration for a key wins, as in PyTorch (it warns on overrides).
const ImplRecord* kernel_for(const Registrations& regs, const OpSignature& sig, const std::string& key) {
  const ImplRecord* found = nullptr;
  for (const auto& impl : regs.impls)
    if (impl.dispatch_key == key && impl_matches(impl, sig)) found = &impl;
  return found;
}

}  // namespace

const ImplRecord* resolve_cpu_kernel(const Registrations& regs, const OpSignature& sig) {
  const std::vector<std::string>& order = cpu_dispatch_order();
  // BackendSelect is in every call's key set (c10's default included set) and
  // ranks above the backends: its kernel runs before a CPU one. Only the
  // Autograd level ranks higher, where a CompositeImplicitAutograd kernel sits
  // when nothing is registered for the backend.
  if (const ImplRecord* select = kernel_for(regs, sig, "BackendSelect")) {
    bool backend = false;
    for (const char* k : {"CPU", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"})
      backend = backend || kernel_for(regs, sig, k);
    const bool implicit = kernel_for(regs, sig, "CompositeImplicitAutograd") || kernel_for(regs, sig, "");
    if (backend || !implicit) return select;
  }
  for (const auto& key : order)
    if (const ImplRecord* found = kernel_for(regs, sig, key)) return found;
  return nullptr;
}

}  // namespace torchabi::runtime
