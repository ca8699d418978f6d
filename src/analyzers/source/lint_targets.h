// Which translation units `torchabi lint` analyses, with which flags: the
// compile database (-p BUILD_DIR, or ./compile_commands.json; a build.ninja
// when there is none), the FILEs the
// user named, and explicit flags after `--`. Files that cannot be analysed
// (missing, not in the database, a missing flag file) are listed, not fatal;
// only "nothing at all to analyse" is an input error.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "findings/finding.h"
#include "inputs/compile_db_args.h"
#include "inputs/compile_db_reader.h"

namespace torchabi::source {

struct LintTargets {
  std::vector<inputs::ClangArgs> tus;
  std::vector<findings::InputFailure> skipped;  // could not be analysed, and why
  std::vector<std::string> notes;               // how flags were chosen, when not obvious
  std::string compile_db;                       // the compile_commands.json (or build.ninja) used, if any
  bool sources_left_out = false;                // the database leaves some of the build's sources out (CompileDb::left_out)
  std::vector<std::string> default_roots;       // project roots to use when none are given
};

struct LintRequest {
  std::string build_dir;                           // -p; empty: ./compile_commands.json or build.ninja if present
  std::vector<std::string> files;                  // empty: every file of the database
  std::optional<std::vector<std::string>> flags;   // after `--`
  std::string cwd;
  // A compile database made from the project's build files when it has none
  // (project mode, inputs/project/); used as -p's would be.
  std::optional<inputs::CompileDb> derived_db;
};

// Throws InputError when the named database is missing or malformed, or when
// there is no database, no flags and no file.
LintTargets collect_lint_targets(const LintRequest& request);

bool is_source_or_header(const std::string& path);

}  // namespace torchabi::source
