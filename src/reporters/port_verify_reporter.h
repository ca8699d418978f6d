// The report of `verify-port` and `migrate --fix --verify`: per extension,
// whether the port compiles with the stable headers alone and builds, then
// per op "ported and verified" / "ported, not verified (why)" / "ported,
// differs (the first difference)" / "not ported (the original's function)".
#pragma once

#include <string>

#include "analyzers/migration/port_verify/port_verify.h"

namespace torchabi::reporters {

std::string render_verify_text(const migration::VerifyRun& run);
std::string render_verify_json(const migration::VerifyRun& run);

}  // namespace torchabi::reporters
