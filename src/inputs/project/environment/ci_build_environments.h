// The environments a project's CI builds it in. Build scripts take switches
// from the environment (`os.environ.get("PKG_BUILD_STABLE_ABI") == "1"`), and
// the release build is the one its CI runs: a setup.py that builds its stable
// extension only under such a switch declares, run with defaults, another
// extension or none. GitHub Actions workflows say what CI sets: for each step
// that builds the package (pip wheel/install, uv build, python -m build,
// setup.py, cibuildwheel), the env its workflow, job and step set, and the
// `NAME=value` / `export NAME=value` lines of its script before the command.
// Only literal values are kept: `${{ ... }}` is CI's own.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace torchabi::inputs {

struct CiBuildEnvironment {
  std::string file;  // the workflow, relative to the repository
  std::string job, step;
  std::map<std::string, std::string> env;
};

// The build steps of `repo`/.github/workflows/*.yml|yaml, in file order;
// unreadable workflows are skipped (CI's YAML is not the tool's input).
std::vector<CiBuildEnvironment> ci_build_environments(const std::filesystem::path& repo);

// The repository `dir` is in: the nearest directory at or above it holding
// .git, or "" outside one.
std::filesystem::path enclosing_git_repository(const std::filesystem::path& dir);

// "release.yml, job build-stable, step 'Build wheel': A=1 B=0".
std::string describe(const CiBuildEnvironment& e);

}  // namespace torchabi::inputs
