// Turns the measured answer of `audit --torch` (a TorchLoad per library and
// install) into findings and into the library's "loads on" summary, and
// compares it with what the rules predict for stable libraries.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/binary/version_floor.h"
#include "common/version.h"
#include "findings/finding.h"

namespace torchabi::binary {

// What the rules say about a STABLE library on `release`: false below its
// floor, true from it on, nullopt when they cannot say (no release known,
// a baseline floor above the release, shim imports the rules do not list).
std::optional<bool> rules_prediction(const std::string& verdict, const VersionFloor& floor, bool unknown_shims,
                                     bool needs_build_options, std::optional<TorchVersion> release);

// "torch 2.14.1 (PATH)".
std::string torch_label(const findings::TorchLoad& load);

// binary-missing-library-on-torch, binary-missing-symbol-on-torch and
// binary-rules-disagree-with-torch for one library on one install.
void add_torch_findings(const findings::TorchLoad& load, const findings::Location& where, const VersionFloor& floor,
                        findings::Report& report);

// "loads on torch 1.13.1 (A); does not load on torch 2.14.1 (B)".
std::string measured_loads_on(const std::vector<findings::TorchLoad>& loads);

// The answer for several libraries loaded together (a wheel): loads where
// every one loads; what is missing is the union.
findings::TorchLoad combine_loads(const std::vector<const findings::TorchLoad*>& parts);

}  // namespace torchabi::binary
