// Reports each PYBIND11_MODULE of a project file with the fix-it that turns
// it into a STABLE_TORCH_LIBRARY block (pybind_port.h), under the macro's
// name and place, so that the migration adapter keeps this finding.
#pragma once

#include <string_view>

namespace torchabi::migration {

inline constexpr std::string_view kPybindImportOnly = "an empty pybind11 module, written with Python's C API: ";
inline constexpr std::string_view kPybindPort = "exposes tensors through pybind11; registered as stable operators: ";

// Adds the check to every lint run in this process (call before run_lint).
void register_pybind_port_check();

}  // namespace torchabi::migration
