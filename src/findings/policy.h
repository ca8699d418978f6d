// Turns what analyzers found into what the user is shown: resolves
// severities, drops ignored rules, applies suppressions and the baseline.
#pragma once

#include <set>
#include <string>

#include "findings/config.h"
#include "findings/finding.h"

namespace torchabi::findings {

class RuleRegistry;

// Fingerprints of findings accepted earlier (`--baseline FILE`).
struct Baseline {
  std::set<std::string> fingerprints;
  // Throws InputError naming the file when it is missing or malformed.
  static Baseline load(const std::string& path);
  // The JSON a baseline file holds for these findings (stable, sorted).
  static std::string serialize(const Report& report);
};

// Throws std::logic_error when a finding uses an unregistered rule id: that is
// a torchabi bug, and the tests catch it.
void apply_policy(Report& report, const Config& config, const RuleRegistry& rules, const Baseline* baseline);

// The highest severity left in the report, if any.
std::optional<Severity> worst_severity(const Report& report);

}  // namespace torchabi::findings
