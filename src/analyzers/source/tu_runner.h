// Runs work items in child processes, `jobs` at a time. A libclang crash
// (or any other) in one item takes down only its child: the item comes back
// as failed with the signal, the others are unaffected. Each child's result
// is a string written to a pipe; the parent never touches libclang state,
// but loads libclang before forking so that the children inherit it.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace torchabi::source {

struct IsolatedResult {
  bool ok = false;
  std::string output;  // what the work function returned
  std::string error;   // one line, when !ok
};

// `jobs` 0 means one per available core.
std::vector<IsolatedResult> run_isolated(size_t count, unsigned jobs, const std::function<std::string(size_t)>& work);

unsigned default_jobs();

}  // namespace torchabi::source
