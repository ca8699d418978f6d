#include "inputs/project/environment/cmake_prerequisites.h"

#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "inputs/project/continue_past_prerequisites_cmake.h"  // generated from continue_past_prerequisites.cmake
#include "inputs/project/environment/cmake_version_floor.h"

namespace torchabi::inputs {

PrerequisitesScript write_prerequisites_script(const std::string& dir, const std::string& machine_version) {
  PrerequisitesScript s;
  if (machine_version.empty() || version_below(machine_version, "3.19")) return s;
  const std::string script = dir + "/continue_past_prerequisites.cmake";
  std::ofstream(script) << generated::kContinuePastPrerequisitesCmake;
  s.log = dir + "/continued.tsv";
  std::ofstream{s.log};  // exists (and is writable) before the sandboxed configure appends to it
  // The dependency provider may only be set from the top-level includes (3.24).
  const bool top_level = !version_below(machine_version, "3.24");
  s.cmake_args = {std::string(top_level ? "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" : "-DCMAKE_PROJECT_INCLUDE_BEFORE=") + script,
                  "-DTORCHABI_CONTINUED_LOG=" + s.log};
  return s;
}

std::vector<ContinuedPast> read_continued(const std::string& log) {
  std::vector<ContinuedPast> out;
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    ContinuedPast c;
    if (!std::getline(fields, c.kind, '\t') || !std::getline(fields, c.where, '\t')) continue;
    std::getline(fields, c.what);
    while (!c.what.empty() && (c.what.back() == ' ' || c.what.back() == '\r')) c.what.pop_back();
    if (seen.emplace(c.kind, c.where, c.what).second) out.push_back(std::move(c));
  }
  return out;
}

std::string describe(const ContinuedPast& c) {
  if (c.kind == "find_package") return "find_package(" + c.what + " REQUIRED) in " + c.where + ": not found, taken as found";
  if (c.kind == "message") return "message(FATAL_ERROR) in " + c.where + ": \"" + c.what + "\"";
  if (c.kind == "target") return c.what + " (linked by " + c.where + "): never defined, an empty stand-in";
  // CMake made a relative X-NOTFOUND include directory absolute: the variable is the name.
  if (c.kind == "notfound") return c.what.substr(c.what.rfind('/') + 1) + " (used by " + c.where + "): dropped";
  return c.kind + " " + c.where + " " + c.what;
}

}  // namespace torchabi::inputs
