#include "analyzers/runtime/shim/control.h"

#include "analyzers/runtime/shim/aten_ops.h"
#include "analyzers/runtime/shim/op_table.h"

namespace torchabi::runtime {

RuntimeConfig& config() {
  static RuntimeConfig c;
  return c;
}

namespace {

class ControlImpl final : public Control {
public:
  void configure(const RuntimeConfig& c) override { config() = c; }
  void set_aten_signatures(std::vector<OpSignature> sigs) override {
    runtime::set_aten_signatures(std::move(sigs));
  }
  void set_extension_signatures(std::vector<OpSignature> sigs) override {
    runtime::set_extension_signatures(std::move(sigs));
  }
  void set_schema_lookup(SchemaLookup lookup) override { runtime::set_schema_lookup(std::move(lookup)); }
  std::vector<std::string> aten_implemented() override { return aten::boxed_names(); }
  Registrations registrations() override { return runtime::registrations(); }
  std::vector<Event> drain_events() override { return runtime::drain_events(); }
  CallOutcome invoke(BoxedKernel fn, const OpSignature& sig, const std::vector<Value>& args) override {
    return invoke_kernel(fn, sig, args);
  }
  ActiveStacks* stacks() override { return &active_stacks(); }
};

}  // namespace
}  // namespace torchabi::runtime

extern "C" __attribute__((visibility("default"))) torchabi::runtime::Control* torchabi_runtime_control() {
  static torchabi::runtime::ControlImpl* c = new torchabi::runtime::ControlImpl;
  return c;
}
