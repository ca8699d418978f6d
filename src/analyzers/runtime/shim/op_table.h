// The operators the runtime's dispatcher knows: the reference ATen ops (from
// rules/runtime/aten_ops.tsv) and the extension's own ops, each with the
// signature the driver parsed from its schema. Kernel resolution follows the
// order PyTorch's dispatcher uses for a CPU call.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/library.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime {

void set_aten_signatures(std::vector<OpSignature> sigs);
void set_extension_signatures(std::vector<OpSignature> sigs);

// The schema of any other operator PyTorch has ("aten::x", "overload"), for
// ops the runtime does not implement: libtorch takes over their arguments all
// the same, so the dispatcher must know how to read them. nullopt: no such op.
using SchemaLookup = std::function<std::optional<OpSignature>(const std::string& name, const std::string& overload)>;
void set_schema_lookup(SchemaLookup lookup);

// `name` is "ns::op" (as the dispatcher entry points receive it): an op of
// the extension, one of the reference ATen ops, or (through the lookup) any
// other ATen op. `is_aten` is false only for the extension's own ops.
const OpSignature* find_signature(const std::string& name, const std::string& overload, bool* is_aten);

// True when `impl` (whose name may be "op", "op.overload" or "ns::op.overload")
// registers a kernel for `sig`.
bool impl_matches(const ImplRecord& impl, const OpSignature& sig);

// The dispatch keys whose kernels a CPU call reaches, most specific first;
// "" is an impl registered inside a def/fragment block (a catch-all).
const std::vector<std::string>& cpu_dispatch_order();

// The kernel a CPU call of `sig` runs, or null when none is registered.
const ImplRecord* resolve_cpu_kernel(const Registrations& regs, const OpSignature& sig);

}  // namespace torchabi::runtime
