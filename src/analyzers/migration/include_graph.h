// Which project files include which: the basis of the plan's order of work.
// A textual scan of #include lines is enough here (the graph only groups
// files for review) and costs nothing next to parsing the translation units.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace torchabi::migration {

// Project file -> project files it includes directly. Paths are absolute and
// lexically normal.
using IncludeGraph = std::map<std::string, std::vector<std::string>>;

struct IncludeScanOptions {
  std::vector<std::string> include_dirs;  // -I/-iquote/-isystem directories of the project's commands
  // Whether a resolved path belongs to the project (and is followed); files
  // outside (torch, the standard library) are not.
  std::function<bool(const std::string&)> is_project;
};

// Starting from `files`, follows every #include that resolves to a project
// file. Unreadable or unresolvable includes are skipped: lint reports them.
IncludeGraph scan_include_graph(const std::vector<std::string>& files, const IncludeScanOptions& opts);

// Absolute, lexically normal form of `path` (relative to the working directory).
std::string normal_path(const std::string& path);

// `path` as the user reads it: relative to the working directory when below it.
std::string shown_path(const std::string& path);

}  // namespace torchabi::migration
