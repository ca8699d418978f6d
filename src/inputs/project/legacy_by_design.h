// A project that builds a stable library next to a legacy one (vLLM's `_C`
// and `_C_stable_libtorch`, MSLK's `mslk` and `mslk_stable`) ported one of
// them on purpose. The legacy one's ATen uses are not defects of the port:
// reporting each as an error would bury the stable library's findings, and
// linting them costs most of the run. Such a unit is legacy by design, like
// a kernel-builder backend that [torch.stable-abi] does not list: not linted,
// and the report says so once, with what it means for a wheel that ships both.
#pragma once

#include <string>

#include "inputs/project/project_build.h"

namespace torchabi::inputs {

// Marks stable_expected = false on every configuration of a unit (extension,
// target) of `platform` none of whose sources reaches a stable PyTorch header
// and some of whose sources reach a legacy one (through the project's
// headers too: torch_include_kind.h), when another unit of the same platform
// does reach the stable ABI. kernel-builder backends keep what build.toml
// says. Never a unit whose build targets the stable ABI (TORCH_TARGET_VERSION
// or TORCH_STABLE_ONLY in its flags) or one of whose sources reaches the
// stable API, a source that includes both kinds counting as stable: those
// are ports, linted, their non-stable includes errors. Adds a fact naming
// each such unit.
void mark_legacy_by_design(ProjectBuild& b, const std::string& platform);

}  // namespace torchabi::inputs
