#include "analyzers/runtime/driver/child.h"

#include <dlfcn.h>
#include <unistd.h>

#include "analyzers/runtime/driver/case_runner.h"
#include "analyzers/runtime/driver/event_findings.h"
#include "analyzers/runtime/driver/fault_handler.h"
#include "analyzers/runtime/driver/lookup_recorder.h"
#include "analyzers/runtime/driver/registrations.h"
#include "analyzers/runtime/driver/standins.h"
#include "analyzers/runtime/driver/wire.h"
#include "analyzers/runtime/shim/control.h"
#include "common/input_error.h"

namespace torchabi::runtime_driver {
namespace {

namespace rt = torchabi::runtime;
using nlohmann::json;

[[noreturn]] void finish(int fd, int code) {
  send(fd, {{"t", "done"}});
  _exit(code);
}

json findings_json(const std::vector<ProtoFinding>& fs) {
  json arr = json::array();
  for (const auto& f : fs) arr.push_back(to_json(f));
  return arr;
}

}  // namespace

void run_child(const ChildPlan& plan) {
  const int fd = plan.event_fd;
  void* lib = dlopen(plan.runtime_library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    send(fd, {{"t", "runtime_error"}, {"message", std::string("cannot load the reference runtime: ") + dlerror()}});
    finish(fd, 3);
  }
  auto entry = reinterpret_cast<rt::ControlEntry>(dlsym(lib, rt::kControlSymbol));
  if (!entry) {
    send(fd, {{"t", "runtime_error"}, {"message", plan.runtime_library + " is not a torchabi runtime library"}});
    finish(fd, 3);
  }
  rt::Control& runtime = *entry();
  rt::RuntimeConfig config;
  config.abi_version = plan.abi_version;
  runtime.configure(config);
  runtime.set_aten_signatures(plan.aten);
  runtime.set_schema_lookup(plan.aten_lookup);
  install_fault_handlers(fd, runtime.stacks());

  for (const auto& soname : plan.standins) {
    std::string error = load_standin(plan.standin_template, soname);
    if (!error.empty()) {
      send(fd, {{"t", "runtime_error"}, {"message", error}});
      finish(fd, 3);
    }
  }

  for (const auto& lib : plan.preload) {
    if (!dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      send(fd, {{"t", "input_error"}, {"input", "--preload"}, {"message", std::string("cannot load it: ") + dlerror()}});
      finish(fd, 0);
    }
  }

  // The extension's static initialisers run here: STABLE_TORCH_LIBRARY blocks register.
  set_current_case(-1);
  void* extension = dlopen(plan.extension.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!extension) {
    send(fd, {{"t", "load_failed"}, {"message", dlerror()}});
    finish(fd, 0);
  }
  const std::string unrecorded = record_name_lookups(extension);
  rt::Registrations regs = runtime.registrations();
  RegistrationReport report = analyze_registrations(regs);
  EventFindings load_events = findings_from_events(runtime.drain_events(), "", "while loading: ");
  std::vector<rt::OpSignature> sigs;
  for (const auto& op : report.ops) sigs.push_back(op.sig);
  runtime.set_extension_signatures(sigs);

  if (plan.report_load) {
    std::vector<ProtoFinding> fs = report.findings;
    fs.insert(fs.end(), load_events.findings.begin(), load_events.findings.end());
    json facts = json::array();
    for (const auto& [k, v] : report.facts) facts.push_back({k, v});
    if (!unrecorded.empty()) facts.push_back({"looked up by name", "not observed: " + unrecorded});
    send(fd, {{"t", "loaded"}, {"facts", facts}, {"findings", findings_json(fs)}});
  }

  std::vector<PlannedCase> planned;
  try {
    planned = plan_cases(report, plan.cases);
  } catch (const InputError& e) {
    send(fd, {{"t", "input_error"}, {"input", e.input()}, {"message", e.what()}});
    finish(fd, 0);
  }
  json names = json::array();
  for (const auto& c : planned) names.push_back({{"name", c.name}, {"op", c.op->sig.qualified()}});
  send(fd, {{"t", "plan"}, {"cases", names}});

  const ExceptionContext exceptions{plan.release, &plan.python_errors};
  for (size_t i = plan.start; i < planned.size(); ++i) {
    set_current_case(static_cast<long>(i));
    send(fd, {{"t", "begin"}, {"case", i}});
    try {
      CaseOutcome out = run_case(runtime, planned[i], plan.cases, exceptions);
      json end = {{"t", "end"}, {"case", i}, {"status", out.status}, {"findings", findings_json(out.findings)}};
      if (out.completed) end["effects"] = {{"mutable", out.mutable_args}, {"written", out.written_mutable}};
      if (out.python_error) end["python_error"] = {out.python_error->type, out.python_error->message};
      for (const auto& l : take_name_lookups()) end["lookups"].push_back({l.name, l.found});
      send(fd, end);
    } catch (const InputError& e) {
      send(fd, {{"t", "input_error"}, {"input", e.input()}, {"message", e.what()}});
      finish(fd, 0);
    } catch (const std::exception& e) {
      send(fd, {{"t", "internal_error"}, {"message", e.what()}});
      finish(fd, 3);
    }
  }
  set_current_case(-1);
  finish(fd, 0);
}

}  // namespace torchabi::runtime_driver
