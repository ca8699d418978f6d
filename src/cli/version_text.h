// `torchabi --version`: what a bug report should quote — the tool's version,
// the rules data it judges with, and the libclang it parses with.
#pragma once

#include <string>

namespace torchabi::cli {

std::string version_text();

}  // namespace torchabi::cli
