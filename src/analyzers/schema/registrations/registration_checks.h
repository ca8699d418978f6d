// The registration checks of `torchabi lint` / `check`, over the
// registrations of every translation unit of a project at once:
//   schema-   schemas that do not parse, duplicate defs, impls of ops never
//             defined, defs nothing implements, unknown dispatch keys,
//             names in the wrong namespace, kernels whose C++ signature
//             does not match (legacy API), ops without a Tensor argument
//             whose kernels are all under keys the dispatcher cannot reach
//   boxed-    hand-written StableIValue kernels (stack slots, types, each
//             argument read and each return written exactly once), TORCH_BOX
//             signatures, schema types with no stable representation
//   backend-  aten kernels of an out-of-tree device (PrivateUse1): the op
//             exists and the kernel matches its schema; kernel coverage
//   torchbind- custom classes and ops taking them, against the project's
//             Python fakes
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analyzers/schema/compile_readiness/python_op_model.h"
#include "analyzers/schema/compile_readiness/view_functions.h"
#include "analyzers/schema/registrations/aten_ops.h"
#include "analyzers/schema/registrations/kernel_types.h"
#include "analyzers/schema/registrations/python_registrations.h"
#include "analyzers/schema/registrations/registration_model.h"
#include "findings/finding.h"

namespace torchabi::schema {

struct RegistrationEnv {
  KernelTypes types;
  std::set<std::string> dispatch_keys;
  AtenOps aten;
  PythonRegistrations python;  // filled by the caller from the project's files
  PythonOpModel python_ops;    // the same files read by CPython's parser (compile readiness); filled by the caller
  ViewFunctions view_functions;  // calls whose result aliases their input

  // Throws InputError when rules/schema/ is malformed.
  static RegistrationEnv load(const inputs::RulesSource& rules);
};

struct RegistrationOutcome {
  std::vector<findings::Finding> findings;
  std::vector<findings::Subject> subjects;  // one per device backend: kernel coverage
};

// `whole_project`: every translation unit of the project is in `tus` (a
// compile database or a directory was analysed). Otherwise a def, impl or
// kernel that is not there may be in a file that was not analysed, and the
// checks that conclude from its absence only note it.
RegistrationOutcome check_registrations(const std::vector<TuRegistrations>& tus, const RegistrationEnv& env,
                                        bool whole_project = true);

}  // namespace torchabi::schema
