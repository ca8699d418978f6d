// Reads what an extension registered while loading: parses each schema it
// defined, pairs implementations with definitions, and reports registrations
// PyTorch would reject or that can never be called.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzers/runtime/driver/wire.h"
#include "analyzers/runtime/shim/library.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime_driver {

struct OpInfo {
  runtime::OpSignature sig;
  std::vector<std::string> dispatch_keys;  // of its kernels; "catch-all" for impls in def blocks
  const runtime::ImplRecord* cpu_kernel = nullptr;  // points into the Registrations it was built from
};

struct RegistrationReport {
  std::vector<OpInfo> ops;  // in definition order
  std::vector<ProtoFinding> findings;
  std::vector<std::pair<std::string, std::string>> facts;  // for the report's subject
};

RegistrationReport analyze_registrations(const runtime::Registrations& regs);

}  // namespace torchabi::runtime_driver
