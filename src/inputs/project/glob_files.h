// Globs over a project directory, for both build-file readers: each path
// component is matched with fnmatch(3) ('*', '?', '[...]'; hidden names only
// when the pattern names them), and a '**' component matches any number of
// directories, as Python's glob.glob(recursive=True) does. Patterns that
// reach outside `root` are not walked.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace torchabi::inputs {

// Absolute, sorted paths of the regular files matching `pattern` (absolute,
// or relative to `root`); nullopt when the pattern lies outside `root`.
std::optional<std::vector<std::string>> glob_files(const std::string& root, const std::string& pattern);

}  // namespace torchabi::inputs
