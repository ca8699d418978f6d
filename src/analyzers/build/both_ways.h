// USE_CUDA decides what half a CUDA extension's sources compile (the shim
// declares the CUDA stream functions under it; ports guard their CUDA code
// with it). Where the build's flags could not be determined (a value
// computed by code torchabi did not run, a configure continued past missing
// prerequisites, a sweep), choosing "undefined" would hide the CUDA half,
// and choosing "defined" the CPU half: such translation units are linted
// both ways, and lint's merge keeps what either way found (each finding of
// the second way says so).
#pragma once

#include <optional>
#include <string>

#include "findings/finding.h"
#include "inputs/compile_db_reader.h"
#include "inputs/project/project_build.h"

namespace torchabi::build {

inline constexpr const char* kOtherWayDefine = "USE_CUDA";

// The project's compile commands to lint again with -DUSE_CUDA: those of
// configurations whose flags are unresolved (every one when `all_unknown`),
// that do not decide USE_CUDA themselves (-D or -U), and whose first lint
// (`first`) found PyTorch uses in a branch USE_CUDA would enable, in the
// source or a header it compiled. Nothing when no command qualifies.
std::optional<inputs::CompileDb> commands_to_lint_with_cuda(const inputs::ProjectBuild& project, bool all_unknown,
                                                            const findings::Report& first);

// After the merge: a source-inactive-branch finding on a line where either
// way's AST reported a use is that use seen from the other side (lint folds
// `t.dim()` into the finding on `at::Tensor t`, so column and symbol differ).
void drop_branches_seen_both_ways(findings::Report& merged);

}  // namespace torchabi::build
