// Runs the registration checks over a fixture project under
// fixtures/schema/<rule>/<fires|clean>/: every *.cpp is a translation unit,
// parsed against the stand-in stable headers in fixtures/schema/include, or,
// when the directory holds a file named `legacy`, against Debian's
// libtorch-dev headers, or, when it holds `real-torch` (the extra flags, one
// or more a line), against PyTorch's real headers (tests/support/real_torch.h;
// callers skip when they are absent). Results are cached per directory for the test run.
#pragma once

#include <string>

#include "analyzers/schema/registrations/registration_runner.h"

namespace torchabi::schema::testing {

std::string fixture_dir(const std::string& relative);  // fixtures/schema/<relative>
const RegistrationRun& run_fixture(const std::string& relative);
size_t count_rule(const RegistrationRun& run, const std::string& rule);
std::string describe(const RegistrationRun& run);  // every finding, one per line, for failure messages

}  // namespace torchabi::schema::testing
