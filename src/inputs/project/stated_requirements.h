// The torch requirement a project states in pyproject.toml's [project]
// dependencies, with its line: what pip will allow next to the package
// (setup.py's install_requires comes from running it, setup_run.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/version.h"
#include "inputs/project/project_build.h"

namespace torchabi::inputs {

// The entries naming torch in `pyproject` ([project] dependencies); none
// when the file is missing or unreadable (its reader reports that).
std::vector<StatedRequirement> pyproject_torch_requirements(const std::string& pyproject);

// The lowest release a torch requirement allows: "torch>=2.10", "torch ~= 2.10.0",
// "torch==2.10.*" give 2.10; nullopt for other packages or no lower bound.
std::optional<TorchVersion> lowest_torch_allowed(const std::string& requirement);

}  // namespace torchabi::inputs
