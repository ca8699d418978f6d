// Which torch releases a conda package lets conda install it next to, read
// from the `depends` of its info/index.json on the packages that provide
// PyTorch (rules/binary/conda_torch_packages.tsv): the same TorchAllowance a
// wheel's Requires-Dist gives, so one floor check serves both.
#pragma once

#include <set>
#include <string>

#include "analyzers/binary/torch_requirement.h"
#include "inputs/conda_index.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::binary {

// The conda names of PyTorch. Throws InputError naming the rules when the table is missing.
std::set<std::string> conda_torch_packages(const inputs::RulesSource& rules);

// The allowance of one conda version spec: "|" separates alternatives (the
// most permissive decides), "," joins constraints (the highest lower bound
// decides); "2.12", "=2.12", "2.12.*" and "==2.12" all mean 2.12 or later
// patch releases.
TorchAllowance conda_spec_allowance(const std::string& version_spec);

// Every torch dependency applies at once (conda installs pytorch and libtorch
// of one release), so the strictest one decides.
TorchAllowance conda_torch_allowance(const inputs::CondaIndex& index, const std::set<std::string>& torch_names);

}  // namespace torchabi::binary
