// The inputs `lint` and `migrate` share: -p BUILD_DIR, FILE... and, after
// `--`, compiler arguments for those files. CLI11 delivers everything after
// `--` into the FILE list as well, so where `--` stood is recorded while the
// positionals are read and the list is split afterwards.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analyzers/source/lint_targets.h"

namespace torchabi::cli {

struct SourceInputs {
  std::string build_dir;
  std::vector<std::string> positionals;  // FILE... then, after `--`, the compiler arguments
  size_t split = SIZE_MAX;               // index in positionals where `--` was
  size_t seen = 0;
  std::string dashdash_marker;

  // Call from the subcommand's callback: a `--` with no argument after it
  // never reached the FILE validator.
  void finish_parse(const CLI::App& cmd);
  // The lint request these inputs describe, relative to the working directory.
  source::LintRequest request() const;
  // What the report names as its inputs: the files, else the build or working directory.
  std::vector<std::string> report_inputs(const source::LintRequest& request) const;
};

// Adds -p, FILE and COMPILER_ARGS to `cmd`; `inputs` must outlive parsing
// (it is captured by the validator that records the `--`).
void add_source_inputs(CLI::App& cmd, const std::shared_ptr<SourceInputs>& inputs, const std::string& file_help);

// Rejects anything CLI11 left over except `--` (an unknown option of `command`).
void reject_unknown_options(const CLI::App& cmd, const std::string& command);

}  // namespace torchabi::cli
