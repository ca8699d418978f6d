// Runs a Python interpreter of the user's environment on a query of ours
// (`python -c CODE`): how the audit and project mode learn where an
// environment's packages and torch headers are. Never runs a project's code.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace torchabi::inputs {

// The non-empty lines the query printed; nullopt when `python` cannot be run
// or the query fails (stderr is discarded).
std::optional<std::vector<std::string>> run_python_query(const std::string& python, const std::string& code);

}  // namespace torchabi::inputs
