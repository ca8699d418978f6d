// What `verify-port` and `migrate --fix --verify` share: the options of a
// verification, checked before anything runs, and its report and exit code.
#pragma once

#include <string>

#include "analyzers/migration/port_verify/port_verify.h"

namespace CLI {
class App;
}

namespace torchabi::cli {

struct VerifyOptions {
  std::string python = "python3";  // --torch PYTHON
  std::string inputs;              // --inputs FILE.py
  std::string format = "text";     // --verify-format for migrate, --format for verify-port
  std::string output;              // where the report goes ("" : standard output)
  int timeout = 1800;
};

// Adds --torch, --inputs and --verify-timeout to `cmd` (in group `group`).
void add_verify_options(CLI::App& cmd, VerifyOptions& o, const std::string& group);

// Throws InputError naming a bad --inputs or --torch value.
void validate_verify_options(const VerifyOptions& o);

// Writes the report; the exit code: 0 when every op of every extension is
// verified, 1 otherwise (a difference, or anything left unverified: a partial
// verification is never a pass).
int finish_verification(const migration::VerifyRun& run, const VerifyOptions& o);

}  // namespace torchabi::cli
