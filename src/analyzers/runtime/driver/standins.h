// Stand-ins for the PyTorch libraries an extension names in DT_NEEDED. Torch
// builds carry versioned sonames (Debian: libtorch_cpu.so.2.14) as well as
// plain ones, so the names are matched by pattern (rules/runtime/
// torch_libraries.tsv) and each stand-in is made for the exact name the
// extension needs: a copy of one empty template library whose DT_SONAME is
// patched, loaded from an in-memory file before the extension.
#pragma once

#include <string>
#include <vector>

#include "inputs/rules_source.h"

namespace torchabi::runtime_driver {

// The names among `needed` that belong to a PyTorch install, in order.
// Throws InputError when the rules file is malformed.
std::vector<std::string> torch_library_names(const std::vector<std::string>& needed, const inputs::RulesSource& rules);

// The template's placeholder soname (the longest soname a stand-in can take).
const std::string& standin_placeholder_soname();

// Loads (RTLD_GLOBAL) a copy of `template_path` whose soname is `soname`.
// Returns "" on success, otherwise why it failed.
std::string load_standin(const std::string& template_path, const std::string& soname);

}  // namespace torchabi::runtime_driver
