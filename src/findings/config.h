// User configuration: --config FILE, else [tool.torchabi] in pyproject.toml or
// .torchabi.yaml, whichever is found first walking up from the inputs.
// Only policy lives here (what to fail on, what is accepted and why); what a
// rule checks is never configurable per project.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::findings {

// Accepts findings of `rule` (or every rule, when empty) whose location
// matches all the globs given. A reason is mandatory: a suppression nobody can
// explain is a bug waiting for the next release.
struct Suppression {
  std::string rule;     // exact id, or a glob such as "binary-*"
  std::string symbol;   // glob on Location::symbol (demangled name or C symbol)
  std::string library;  // glob on the library file name or wheel member
  std::string path;     // glob on Location::file
  std::string reason;
  std::string origin;   // "config.yaml" — for messages
};

struct Config {
  std::string source;  // file the config came from; empty: defaults
  std::optional<Severity> fail_on;
  std::optional<std::string> target_version;
  std::optional<std::string> baseline;
  // run-build: false forbids running the project's build script (setup.py in
  // CPython, a CMake configure) in project mode; its files are read instead.
  std::optional<bool> run_build;
  // allow-partial: true accepts a project analysis that did not cover the
  // build as the project builds it (check --allow-partial): its findings
  // (project-analysis-partial, project-python-unavailable) become notes.
  std::optional<bool> allow_partial;
  std::map<std::string, Severity> severity;  // per-rule overrides
  std::vector<std::string> ignore;           // rule ids/globs never reported
  std::vector<Suppression> suppress;

  // Throws InputError naming the file when it is malformed, or a suppression lacks a reason.
  static Config load_file(const std::string& path);
  // Walks up from each input's directory; the first config file found wins.
  static Config discover(const std::vector<std::string>& inputs);
};

}  // namespace torchabi::findings
