// The oldest PyTorch a project says it supports, for the checks that compare
// it with what the build will need (build-target-version-missing): the
// config's target-version ([tool.torchabi] or .torchabi.yaml), else the
// torch requirement of pyproject.toml's [project] dependencies, found upward
// from the inputs like the config.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/source/lint_env.h"

namespace torchabi::cli {

// `config_path`: --config, or empty to discover. Never throws for a
// pyproject.toml it cannot read (the config reader reports bad configs).
std::optional<source::TorchPromise> find_torch_promise(const std::string& config_path,
                                                       const std::vector<std::string>& inputs);

}  // namespace torchabi::cli
