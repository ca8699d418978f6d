// Scratch files for the rewrite tests: each test gets a fresh directory.
#pragma once

#include <string>

namespace torchabi::migration::testing {

// A new empty directory, removed when the process exits.
std::string scratch_dir();
// Writes `content` to dir/name and returns the path.
std::string put_file(const std::string& dir, const std::string& name, const std::string& content);
std::string slurp(const std::string& path);

}  // namespace torchabi::migration::testing
