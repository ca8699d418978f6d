// What lint found out about each configuration of a project: which of its
// translation units are stable, the TORCH_TARGET_VERSION each one compiles
// with, and the release its objects will need. The configuration checks
// compare these across compilers, extensions, backends and platforms.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/version.h"
#include "findings/finding.h"
#include "inputs/project/project_build.h"

namespace torchabi::build {

struct LintedConfiguration {
  const inputs::BuildConfiguration* config = nullptr;
  std::vector<std::string> stable_files;    // as the report shows them
  std::optional<TorchVersion> target;       // the highest any stable TU compiles with
  std::vector<std::string> untargeted;      // stable TUs compiled without one
  // Stable TUs given a TORCH_TARGET_VERSION that decodes to no release: they do
  // state a target (version-target-implausible says what is wrong with it).
  std::vector<std::string> invalid_target;
  std::optional<TorchVersion> floor;        // the release the build will need (predicted)
  std::optional<TorchVersion> code_floor;   // the oldest release its code allows
  std::vector<std::string> code_floor_set_by;  // the APIs that set code_floor
  bool stable() const { return !stable_files.empty(); }
  bool states_target() const { return target || !invalid_target.empty(); }
};

struct ProjectView {
  const inputs::ProjectBuild* project = nullptr;
  std::string platform;
  std::vector<LintedConfiguration> linted;  // configurations of `platform` held to the stable ABI
  // The configurations of the other platforms (not linted), for comparison.
  std::vector<const inputs::BuildConfiguration*> elsewhere;
};

ProjectView view_of(const inputs::ProjectBuild& project, const std::string& platform, const findings::Report& lint);

// The report's form of an absolute path (relative to the working directory).
std::string shown_path(const std::string& absolute);

// -DNAME[=VALUE] values of `name` in a configuration's flags, in order (-U clears).
std::optional<std::string> define_value(const inputs::BuildConfiguration& c, const std::string& name);

// A finding of `rule` at the line of the build file that declares `c`.
findings::Finding at_declaration(const std::string& rule, const inputs::BuildConfiguration& c);

// "extra_compile_args["nvcc"]" / "target_compile_definitions(ops ...)" /
// "[torch] stable-abi": where the user adds a flag for `c`, by build system.
std::string where_flags_go(const inputs::BuildConfiguration& c);

}  // namespace torchabi::build
