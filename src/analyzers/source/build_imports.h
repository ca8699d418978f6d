// What the object file compiled from one TU will import from libtorch: the
// C shim functions its code calls, and those called by the inline code of
// PyTorch's stable headers that its code reaches. The stable headers are
// header-only C++ over the C shim: Tensor's deleter calls
// aoti_torch_delete_tensor_object, STABLE_TORCH_ERROR_CODE_CHECK's
// throw_exception calls torch_exception_get_what (2.13) when the
// TORCH_FEATURE_VERSION the flags produce allows it, and so on. None of that
// is written in the user's code, yet it is what decides on which releases the
// built library loads (what `audit` reads from the .so).
//
// The prediction follows calls as the compiler emits them: from every
// function, variable and registration in project files, into the definitions
// (template instantiations included) that stable headers provide, and through
// the constructors and destructors of the stable classes it constructs. It is
// an upper bound of what the optimiser keeps (a call it proves dead may go).
#pragma once

#include <string>
#include <vector>

#include "analyzers/source/front_end.h"
#include "analyzers/source/lint_env.h"
#include "common/version.h"

namespace torchabi::source {

struct ShimImport {
  std::string name;      // the C symbol
  TorchVersion since;    // the catalog's release (the baseline for older ones)
  bool baseline = true;  // available in every release the catalog knows
  // How the project reaches it: the stable API the project's code uses
  // (empty when the project calls the shim itself) and where.
  std::string via;
  Range used_at;
};

// Sorted by name; one entry per symbol (its first use in file order).
std::vector<ShimImport> predict_shim_imports(const ParsedTu& tu, const LintEnv& env);

}  // namespace torchabi::source
