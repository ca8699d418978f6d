// Which TUs lint analyses: the whole database, named files, headers that
// borrow flags, explicit flags, and files that cannot be analysed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analyzers/source/lint_targets.h"
#include "common/input_error.h"

namespace torchabi::source {
namespace {

namespace fs = std::filesystem;

struct Targets : ::testing::Test {
  fs::path dir = fs::path(::testing::TempDir()) / ("targets_" + std::to_string(::getpid()));
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir / "src");
    fs::create_directories(dir / "build");
    for (const char* f : {"src/a.cpp", "src/b.cu", "src/util.h", "src/orphan.cpp"}) std::ofstream(dir / f) << "\n";
    std::ofstream(dir / "build/compile_commands.json")
        << "[{\"directory\": \"" << (dir / "build").string() << "\", \"command\": \"c++ -DA -c ../src/a.cpp\", \"file\": \"../src/a.cpp\"},"
        << " {\"directory\": \"" << (dir / "build").string() << "\", \"command\": \"nvcc -c ../src/b.cu\", \"file\": \"../src/b.cu\"},"
        << " {\"directory\": \"" << (dir / "build").string() << "\", \"command\": \"c++ -c ../src/gone.cpp\", \"file\": \"../src/gone.cpp\"}]";
  }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(Targets, WholeDatabaseWithMissingFilesListedNotFatal) {
  LintRequest req{(dir / "build").string(), {}, std::nullopt, dir.string(), std::nullopt};
  LintTargets t = collect_lint_targets(req);
  ASSERT_EQ(t.tus.size(), 2u);
  EXPECT_EQ(t.tus[0].file, (dir / "src/a.cpp").string());
  EXPECT_EQ(t.tus[1].language, "cuda");
  ASSERT_EQ(t.skipped.size(), 1u);
  EXPECT_EQ(t.skipped[0].input, "src/gone.cpp");
  EXPECT_EQ(t.skipped[0].message, "file not found");
  EXPECT_EQ(t.default_roots, std::vector<std::string>{dir.string()});
}

TEST_F(Targets, NamedFilesHeadersBorrowFlagsAndUnknownSourcesAreSkipped) {
  LintRequest req{(dir / "build").string(), {"src/util.h", "src/orphan.cpp"}, std::nullopt, dir.string(), std::nullopt};
  LintTargets t = collect_lint_targets(req);
  ASSERT_EQ(t.tus.size(), 1u);
  EXPECT_EQ(t.tus[0].file, (dir / "src/util.h").string());
  EXPECT_NE(std::find(t.tus[0].args.begin(), t.tus[0].args.end(), "-DA"), t.tus[0].args.end());
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("using the flags of src/a.cpp"), std::string::npos) << t.notes[0];
  ASSERT_EQ(t.skipped.size(), 1u);
  EXPECT_EQ(t.skipped[0].message, "not in build/compile_commands.json");
}

TEST_F(Targets, ExplicitFlagsWithoutDatabase) {
  LintRequest req{"", {"src/a.cpp"}, std::vector<std::string>{"-DFROM_CLI"}, dir.string(), std::nullopt};
  LintTargets t = collect_lint_targets(req);
  ASSERT_EQ(t.tus.size(), 1u);
  EXPECT_NE(std::find(t.tus[0].args.begin(), t.tus[0].args.end(), "-DFROM_CLI"), t.tus[0].args.end());
}

// A database of one tree listing a project's sources elsewhere (the e2e
// tests' temporary build of a checkout's fixture): the two have no project in
// common, so each is a root, not the directory above both (which is / for
// /tmp and a checkout, and whose every Python file would be read).
TEST_F(Targets, TreesWithoutACommonProjectAreEachARoot) {
  fs::create_directories(dir / "checkout/csrc");
  fs::create_directories(dir / "scratch/build");
  std::ofstream(dir / "checkout/pyproject.toml") << "[project]\nname = \"x\"\n";
  std::ofstream(dir / "checkout/csrc/op.cpp") << "\n";
  const std::string op = (dir / "checkout/csrc/op.cpp").string();
  std::ofstream(dir / "scratch/build/compile_commands.json")
      << "[{\"directory\": \"" << (dir / "scratch/build").string() << "\", \"command\": \"c++ -c " << op
      << "\", \"file\": \"" << op << "\"}]";
  LintTargets t = collect_lint_targets(LintRequest{(dir / "scratch/build").string(), {}, std::nullopt, dir.string(), std::nullopt});
  ASSERT_EQ(t.tus.size(), 1u);
  EXPECT_EQ(t.default_roots, (std::vector<std::string>{(dir / "checkout").string(), (dir / "scratch/build").string()}));
  // The project's own build directory: one root, the project.
  fs::create_directories(dir / "checkout/build");
  std::ofstream(dir / "checkout/build/compile_commands.json")
      << "[{\"directory\": \"" << (dir / "checkout/build").string() << "\", \"command\": \"c++ -c ../csrc/op.cpp\", "
      << "\"file\": \"../csrc/op.cpp\"}]";
  t = collect_lint_targets(LintRequest{(dir / "checkout/build").string(), {}, std::nullopt, dir.string(), std::nullopt});
  EXPECT_EQ(t.default_roots, std::vector<std::string>{(dir / "checkout").string()});
}

TEST_F(Targets, NothingToAnalyseIsAnInputError) {
  EXPECT_THROW(collect_lint_targets(LintRequest{"", {}, std::nullopt, (dir / "src").string(), std::nullopt}), InputError);
  EXPECT_THROW(collect_lint_targets(LintRequest{(dir / "src").string(), {}, std::nullopt, dir.string(), std::nullopt}), InputError);
}

}  // namespace
}  // namespace torchabi::source
