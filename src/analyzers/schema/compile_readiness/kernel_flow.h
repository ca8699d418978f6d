// What a kernel's body does with its parameters, for the compile-readiness
// checks: where it writes each one (in-place methods and ops, writable data
// pointers, C shim out-variants), whether a parameter leaves the body's sight
// (handed to a helper that may write it), and which parameters it returns,
// as they are or through a call (`return x;`, `return transpose(x, 0, 1);`:
// the output aliases the input). Read in lint's child from the libclang AST,
// carried to the parent as JSON with the kernel's signature.
#pragma once

#include <clang-c/Index.h>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analyzers/source/front_end.h"
#include "findings/finding.h"

namespace torchabi::schema {

struct FlowWrite {
  std::string what;  // "out.fill_()", "torch::stable::zero_(out)", "out.mutable_data_ptr()"
  findings::Location where;
};

struct FlowReturn {
  size_t param = 0;
  std::string via;  // empty: the parameter itself; else the callee ("torch::stable::transpose", "x.view")
  findings::Location where;
};

struct KernelFlow {
  std::vector<std::vector<FlowWrite>> writes;  // per parameter, every write seen (first few)
  std::vector<bool> escapes;                   // per parameter: used where a write could hide
  std::vector<FlowReturn> returns;
};

// nullopt when the TU holds no body for `fn` (a function, method or lambda).
std::optional<KernelFlow> kernel_flow(const source::ParsedTu& tu, CXCursor fn);

void to_json(nlohmann::json& j, const KernelFlow& f);
void from_json(const nlohmann::json& j, KernelFlow& f);

}  // namespace torchabi::schema
