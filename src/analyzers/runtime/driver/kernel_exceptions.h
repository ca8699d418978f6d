// How the driver words an exception that escaped a kernel: its C++ type and
// message, what a Python caller of the emulated release gets
// (python_errors.h), and the finding for one that is not a std::exception.
#pragma once

#include <string>
#include <vector>

#include "analyzers/runtime/driver/python_errors.h"
#include "analyzers/runtime/driver/wire.h"
#include "analyzers/runtime/shim/invoke.h"

namespace torchabi::runtime_driver {

// What a call's exceptions become in the emulated release's Python.
struct ExceptionContext {
  std::string release;  // "2.14"
  const std::vector<PythonErrorRule>* rules = nullptr;
};

struct Thrown {
  std::string cxx;  // "std::invalid_argument: message" (one line), or "int"
  PythonError python;
};

// `outcome` must hold an exception.
Thrown describe_thrown(const runtime::CallOutcome& outcome, const ExceptionContext& ex);

// "a Python caller of torch 2.14 gets ValueError: message" (one line).
std::string python_caller_gets(const Thrown& t, const ExceptionContext& ex);

// runtime-non-std-exception: reported whatever the inputs, since the message is lost.
ProtoFinding non_std_exception_finding(const Thrown& t, const std::string& op, const std::string& context,
                                       const ExceptionContext& ex);

}  // namespace torchabi::runtime_driver
