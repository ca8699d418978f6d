// Shared JSON pieces for the JSON and SARIF reporters.
#pragma once

#include <nlohmann/json.hpp>

#include "findings/finding.h"

namespace torchabi::reporters {

nlohmann::json location_json(const findings::Location& l);

}  // namespace torchabi::reporters
