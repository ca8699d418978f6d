// Where a build script runs: a throwaway copy of its directory, placed as it
// sits in its repository. A setup.py in `python/` that globs `../csrc/*.cu`,
// or a module that load()s `../kernels/x.cu`, finds in a copy of its
// directory alone nothing, and its extension silently loses those sources:
// when the scripts reach up out of their directory, the rest of the enclosing
// repository is copied around the copy too (source-sized trees only).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace torchabi::inputs {

struct ScriptCopyPlan {
  std::filesystem::path project;  // the directory the scripts are in
  std::filesystem::path top;      // what the copy holds: `project`, or the repository around it
  std::string note;               // set when the scripts reach up but the repository is not copied
};

// Reads `scripts` (files under `project`) for paths that reach up out of it
// (a ".." in a path string, os.pardir, .parent.parent, nested dirname()),
// and, if some do, finds the enclosing repository (the nearest ancestor
// holding .git; outside one, the directory above) and whether its other
// files fit the copy limit.
ScriptCopyPlan plan_script_copy(const std::filesystem::path& project, const std::vector<std::filesystem::path>& scripts);

// Copies per `plan` into `under` (created); returns where the project's
// copy is: under / top's name / project relative to top. Paths a script
// computes map back by replacing `under / top's name` with `top`
// (script_copy_top). Throws InputError (too large) or filesystem_error.
std::filesystem::path make_script_copy(const ScriptCopyPlan& plan, const std::filesystem::path& under);
std::filesystem::path script_copy_top(const ScriptCopyPlan& plan, const std::filesystem::path& under);

}  // namespace torchabi::inputs
