// The `audit --torch` matrix (libraries x PyTorch installs) in the words and
// JSON shapes every reporter shares, so text, Markdown, JSON and SARIF say
// the same thing.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "findings/finding.h"

namespace torchabi::reporters {

// Column titles, one per report.torches entry: "torch 2.14.1"; an index is
// added when two installs would read the same ("[2] torch 2.14.1").
std::vector<std::string> torch_columns(const findings::Report& r);

// "yes", or "no: 2 libraries, 3 symbols, 1 version" (what is missing).
std::string torch_cell(const findings::TorchLoad& load);

// The subject's entry for install `id`, or null.
const findings::TorchLoad* torch_entry(const findings::Subject& s, const std::string& id);

nlohmann::json torch_install_json(const findings::TorchInstallInfo& t);
nlohmann::json torch_load_json(const findings::TorchLoad& l);

}  // namespace torchabi::reporters
