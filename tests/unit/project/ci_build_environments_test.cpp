// The environments CI builds a project in (ci_build_environments.h), from
// fixtures/projects/setup_ci_switch/.github/workflows/wheels.yml.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "inputs/project/environment/ci_build_environments.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;
using Env = std::map<std::string, std::string>;

const fs::path kProject = fs::path(TORCHABI_SOURCE_DIR) / "fixtures/projects/setup_ci_switch";

TEST(CiBuildEnvironments, TheBuildStepsWithWhatTheirWorkflowJobAndScriptSet) {
  const std::vector<CiBuildEnvironment> steps = ci_build_environments(kProject);
  ASSERT_EQ(steps.size(), 2u);  // the lint step and the dependency install build nothing
  EXPECT_EQ(steps[0].file, ".github/workflows/wheels.yml");
  EXPECT_EQ(steps[0].job, "classic");
  EXPECT_EQ(steps[0].step, "Build classic wheel");
  EXPECT_EQ(steps[0].env, (Env{{"CI_SWITCH_OPS", "1"}}));
  EXPECT_EQ(steps[1].job, "stable");
  // ${{ matrix.arch }} is CI's own: not a value.
  EXPECT_EQ(steps[1].env, (Env{{"CI_SWITCH_OPS", "1"}, {"CI_SWITCH_LEVEL", "3"}, {"CI_SWITCH_STABLE", "1"}}));
  EXPECT_EQ(describe(steps[1]),
            ".github/workflows/wheels.yml, job stable, step 'Build stable wheel': CI_SWITCH_LEVEL=3 CI_SWITCH_OPS=1 "
            "CI_SWITCH_STABLE=1");
}

TEST(CiBuildEnvironments, NoWorkflowsOrUnreadableOnesGiveNothing) {
  const fs::path dir = fs::temp_directory_path() / ("ci_env_test." + std::to_string(::getpid()));
  fs::create_directories(dir / ".github/workflows");
  EXPECT_TRUE(ci_build_environments(dir).empty());
  std::ofstream(dir / ".github/workflows/broken.yml") << "jobs: [unclosed\n";
  std::ofstream(dir / ".github/workflows/notes.txt") << "pip wheel .\n";
  EXPECT_TRUE(ci_build_environments(dir).empty());
  fs::remove_all(dir);
}

TEST(CiBuildEnvironments, TheRepositoryIsTheNearestDirectoryWithGit) {
  const fs::path dir = fs::temp_directory_path() / ("ci_env_repo." + std::to_string(::getpid()));
  fs::create_directories(dir / ".git");
  fs::create_directories(dir / "python" / "pkg");
  EXPECT_EQ(enclosing_git_repository(dir / "python" / "pkg"), dir);
  EXPECT_EQ(enclosing_git_repository(dir), dir);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace torchabi::inputs
