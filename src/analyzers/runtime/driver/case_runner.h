// Runs one planned call in the child: builds its arguments (from the case
// file, or from the schema in smoke mode), calls the kernel through the
// runtime, and turns the outcome — protocol events, an escaping exception,
// outputs that differ from the expectation — into findings.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/runtime/driver/cases.h"
#include "analyzers/runtime/driver/kernel_exceptions.h"
#include "analyzers/runtime/driver/registrations.h"
#include "analyzers/runtime/driver/wire.h"
#include "analyzers/runtime/shim/control.h"

namespace torchabi::runtime_driver {

struct PlannedCase {
  std::string name;        // the case's name, or "smoke ns::op"
  const OpInfo* op = nullptr;
  const Case* spec = nullptr;  // null in smoke mode
};

// Throws InputError when a case names an op the extension did not register.
std::vector<PlannedCase> plan_cases(const RegistrationReport& regs, const CaseFile* cases);

struct CaseOutcome {
  std::string status;  // "passed", "failed", "not run: ..."
  std::vector<ProtoFinding> findings;
  bool completed = false;                    // the kernel returned normally
  std::vector<std::string> mutable_args;     // the op's (a!) arguments
  std::vector<std::string> written_mutable;  // those this call changed
  std::optional<PythonError> python_error;  // what a Python caller of torch gets, when the kernel threw
};

// Throws InputError when the case's inputs or expectations do not fit the op.
CaseOutcome run_case(runtime::Control& rt, const PlannedCase& c, const CaseFile* cases, const ExceptionContext& ex);

}  // namespace torchabi::runtime_driver
