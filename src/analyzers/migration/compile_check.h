// The guard behind "--fix keeps the code compiling where it compiled": every
// translation unit that includes a rewritten file is parsed again by libclang
// with the rewritten contents (in memory; nothing is written), and a group of
// files whose rewrite adds compile errors is left untouched. Renaming at::Tensor
// to torch::stable::Tensor is only right when every call on those tensors has
// a stable spelling too; this is where a missed one is caught.
//
// It can only prove what the include path can show: without PyTorch's stable
// headers (torch >= 2.9) nothing rewritten can compile, and a translation unit
// that did not compile before (a .cu file without the CUDA toolkit) cannot be
// compared. Those are accepted with a note saying that they were not checked.
#pragma once

#include <string>
#include <vector>

#include "analyzers/migration/fix_session.h"
#include "inputs/compile_db_args.h"

namespace torchabi::migration {

struct CheckedFixes {
  RewritePlan plan;                // what is safe to write
  std::vector<std::string> notes;  // groups refused, translation units not checked, and why
};

// Plans the fixes, parses every affected translation unit with them, and
// drops the fixes of each group of files (a file and the project files it is
// include-connected to) whose rewrite breaks a translation unit that compiled.
CheckedFixes plan_checked_fixes(FixSessionInputs in, const std::vector<inputs::ClangArgs>& tus, unsigned jobs);

}  // namespace torchabi::migration
