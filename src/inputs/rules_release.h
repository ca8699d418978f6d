// What a bug report needs to name the rules data a run used: where it came
// from, which PyTorch release the generated tables were derived from, and a
// digest that changes with any byte of any rules file (two builds with the
// same digest judge extensions the same way).
#pragma once

#include <string>

#include "inputs/rules_source.h"

namespace torchabi::inputs {

struct RulesRelease {
  std::string source;        // "embedded rules" or the --rules-dir directory
  std::string derived_from;  // "PyTorch 2.14.1": the newest release the generated tables name; empty if none
  size_t files = 0;
  std::string digest;        // 16 hex digits (FNV-1a 64 over every path and content)
};

// For the rules compiled in, the description computed at build time
// (cmake/rules_release.py; embedded_rules_release()); for a directory, read now.
RulesRelease describe_rules(const RulesSource& src);
const RulesRelease& embedded_rules_release();
// Reads every file now, also for the embedded rules (what the build-time
// description must equal).
RulesRelease describe_rules_now(const RulesSource& src);

// "rules: embedded rules, derived from PyTorch 2.14.1, 63 files, digest 0123456789abcdef"
std::string rules_release_line(const RulesRelease& r);

}  // namespace torchabi::inputs
