// The code that runs in the forked child: it loads the runtime library and
// the extension, reports what the extension registered, runs the planned
// calls from `start` on and streams each result to the supervisor. Anything
// the extension does to the process (crash, abort, hang) ends only the child.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzers/runtime/driver/cases.h"
#include "analyzers/runtime/driver/python_errors.h"
#include "analyzers/runtime/shim/op_table.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime_driver {

struct ChildPlan {
  std::string extension;                 // path of the .so
  std::string runtime_library;           // libtorchabi-runtime-X.Y.so
  uint64_t abi_version = 0;              // what aoti_torch_abi_version() reports
  std::string release;                   // "2.14", for what findings say about it
  std::vector<PythonErrorRule> python_errors;  // rules/runtime/kernel_exceptions.tsv
  std::vector<runtime::OpSignature> aten;
  runtime::SchemaLookup aten_lookup;     // every other ATen op (make_aten_schema_lookup)
  const CaseFile* cases = nullptr;       // null: smoke mode
  std::string standin_template;          // libtorchabi-standin.so (see standins.h)
  std::vector<std::string> standins;     // sonames of the torch libraries the extension names
  std::vector<std::string> preload;      // loaded RTLD_GLOBAL before the extension (--preload)
  size_t start = 0;                      // first planned call to run
  bool report_load = true;               // send what was registered (the first child only)
  int event_fd = -1;
};

[[noreturn]] void run_child(const ChildPlan& plan);

}  // namespace torchabi::runtime_driver
