// How torchabi's driver talks to a runtime library it has dlopen'ed. The
// runtime exports only the stable C functions of one release plus
// `torchabi_runtime_control`, which returns this interface; everything else in
// the library is local, so it cannot collide with an extension's symbols.
// Driver and runtime are built together by the same compiler, so passing
// C++ types across is safe.
#pragma once

#include <string>
#include <vector>

#include "analyzers/runtime/shim/invoke.h"
#include "analyzers/runtime/shim/journal.h"
#include "analyzers/runtime/shim/library.h"
#include "analyzers/runtime/shim/op_table.h"
#include "analyzers/runtime/shim/runtime_config.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime {

class Control {
public:
  virtual ~Control() = default;
  virtual void configure(const RuntimeConfig& config) = 0;
  virtual void set_aten_signatures(std::vector<OpSignature> sigs) = 0;
  virtual void set_extension_signatures(std::vector<OpSignature> sigs) = 0;
  virtual void set_schema_lookup(SchemaLookup lookup) = 0;
  // ATen ops ("aten::sum.dim_IntList") the dispatcher can execute.
  virtual std::vector<std::string> aten_implemented() = 0;
  virtual Registrations registrations() = 0;
  virtual std::vector<Event> drain_events() = 0;
  virtual CallOutcome invoke(BoxedKernel fn, const OpSignature& sig, const std::vector<Value>& args) = 0;
  virtual ActiveStacks* stacks() = 0;
};

using ControlEntry = Control* (*)();
inline constexpr const char* kControlSymbol = "torchabi_runtime_control";

}  // namespace torchabi::runtime
