// The CI integrations of docs/ci.md, run as CI would run them: the GitHub
// Action's check step, the pre-commit hook's entry, the cibuildwheel command
// read from the page itself, and the .deb that cpack builds.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "lint_fixtures.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using lint::read_all;
using lint::write_file;

struct Shell {
  int exit_code = -1;
  std::string out, err;
};

// `bash -c SCRIPT` in `cwd`, with build/ first on PATH (where the hook and
// the documented commands find `torchabi`) and `env` set (each test runs in
// its own process).
Shell shell(const std::string& script, const std::string& cwd,
            const std::vector<std::pair<std::string, std::string>>& env = {}) {
  const std::string dir = make_temp_dir();
  std::ofstream(dir + "/script.sh") << script;
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  const std::string cmd = "cd '" + cwd + "' && PATH='" + fs::path(torchabi_binary()).parent_path().string() + ":" +
                          std::getenv("PATH") + "' bash " + dir + "/script.sh >" + dir + "/out 2>" + dir + "/err";
  const int status = std::system(cmd.c_str());
  for (const auto& [k, v] : env) unsetenv(k.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_all(dir + "/out"), read_all(dir + "/err")};
}

std::string wheel(const std::string& dist) {
  return build_dir() + "/fixtures/wheels/" + dist + "-1.0-cp311-cp311-linux_x86_64.whl";
}

std::string stable_library() { return build_dir() + "/fixtures/stable_ext/libstable_ext.so"; }
std::string newer_library() { return build_dir() + "/fixtures/stable_ext/libstable_ext_2_12.so"; }

// ---- GitHub Action: scripts/ci/action-check.sh with GitHub's variables ----

struct ActionRun {
  Shell sh;
  std::string dir;
};

ActionRun action_check(const std::string& args, bool sarif = true) {
  const std::string dir = make_temp_dir();
  return {shell(source_dir() + "/scripts/ci/action-check.sh\n", dir,
                {{"TORCHABI", torchabi_binary()},
                 {"TORCHABI_ARGS", args},
                 {"GITHUB_STEP_SUMMARY", dir + "/summary.md"},
                 {"GITHUB_OUTPUT", dir + "/output"},
                 {"TORCHABI_SARIF", sarif ? dir + "/r.sarif" : ""}}),
          dir};
}

TEST(GitHubAction, CheckStepWritesSarifSummaryAndExitCode) {
  auto r = action_check(newer_library() + " --target-version 2.10");
  EXPECT_EQ(r.sh.exit_code, 1) << r.sh.err;  // a 2.12 import in a library for 2.10
  auto sarif = nlohmann::json::parse(read_all(r.dir + "/r.sarif"));
  bool found = false;
  for (const auto& res : sarif["runs"][0]["results"]) found |= res["ruleId"] == "version-import-after-target";
  EXPECT_TRUE(found) << sarif.dump(1);
  const std::string summary = read_all(r.dir + "/summary.md");
  EXPECT_TRUE(summary.starts_with("#")) << summary;
  EXPECT_NE(summary.find("version-import-after-target"), std::string::npos) << summary;
  EXPECT_EQ(read_all(r.dir + "/output"), "exit-code=1\n");
}

TEST(GitHubAction, CleanInputExitsZeroWithoutSarif) {
  auto r = action_check(stable_library() + " --target-version 2.10", /*sarif=*/false);
  EXPECT_EQ(r.sh.exit_code, 0) << r.sh.err;
  EXPECT_FALSE(fs::exists(r.dir + "/r.sarif"));
  EXPECT_FALSE(read_all(r.dir + "/summary.md").empty());
  EXPECT_EQ(read_all(r.dir + "/output"), "exit-code=0\n");
}

TEST(GitHubAction, ArgumentsAreSplitLikeAShellWithoutExpansion) {
  // A quoted path with a space stays one argument; $(...) is not run.
  const std::string dir = make_temp_dir();
  fs::copy_file(stable_library(), dir + "/my lib.so");
  auto r = action_check("'" + dir + "/my lib.so' --target-version 2.10 '$(touch " + dir + "/ran)'", false);
  EXPECT_EQ(r.sh.exit_code, 0) << r.sh.err;  // the odd argument is a path that is not found: a note
  EXPECT_FALSE(fs::exists(dir + "/ran"));
  EXPECT_NE(r.sh.err.find("$(touch"), std::string::npos) << r.sh.err;
}

TEST(GitHubAction, UnbalancedQuoteIsOneLineExitTwo) {
  auto r = action_check("'unterminated", false);
  EXPECT_EQ(r.sh.exit_code, 2);
  EXPECT_EQ(std::count(r.sh.err.begin(), r.sh.err.end(), '\n'), 1) << r.sh.err;
  EXPECT_NE(r.sh.err.find("TORCHABI_ARGS"), std::string::npos) << r.sh.err;
}

// ---- pre-commit: the hook's entry on the files a commit changes ----

std::string hook_entry() {
  YAML::Node hooks = YAML::LoadFile(source_dir() + "/.pre-commit-hooks.yaml");
  for (const auto& h : hooks)
    if (h["id"].as<std::string>() == "torchabi-check") return h["entry"].as<std::string>();
  return "";
}

TEST(PreCommit, HookEntryFailsOnAnUnstableChangeAndPassesAStableOne) {
  const std::string entry = hook_entry();
  ASSERT_FALSE(entry.empty());
  const std::string repo = make_temp_dir();
  write_file(repo, "csrc/legacy.cpp",
             "#include <c10/util/Exception.h>\nvoid check(int n) { TORCH_CHECK(n > 0, \"n\"); }\n");
  write_file(repo, "csrc/plain.cpp", "int twice(int n) { return 2 * n; }\n");
  fs::create_directories(repo + "/build");
  std::string db = "[";
  for (const char* f : {"legacy", "plain"})
    db += std::string(db.size() > 1 ? "," : "") + "{\"directory\": \"" + repo + "\", \"command\": \"c++ -std=c++17 -I" +
          lint::stand_ins() + " -c csrc/" + f + ".cpp\", \"file\": \"csrc/" + f + ".cpp\"}";
  std::ofstream(repo + "/build/compile_commands.json") << db << "]";
  // pre-commit appends the changed files to the entry.
  auto unstable = shell(entry + " csrc/legacy.cpp\n", repo);
  EXPECT_EQ(unstable.exit_code, 1) << unstable.err;
  EXPECT_NE(unstable.out.find("c10/util/Exception.h"), std::string::npos) << unstable.out;
  auto clean = shell(entry + " csrc/plain.cpp\n", repo);
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
}

// ---- cibuildwheel: the audit command exactly as docs/ci.md writes it ----

std::string documented_block(const std::string& tag) {
  const std::string page = read_all(source_dir() + "/docs/ci.md");
  const size_t at = page.find("<!-- tested: " + tag + " -->");
  if (at == std::string::npos) return "";
  const size_t begin = page.find("```sh\n", at);
  const size_t end = page.find("```\n", begin + 6);
  return begin == std::string::npos || end == std::string::npos ? "" : page.substr(begin + 6, end - begin - 6);
}

TEST(Cibuildwheel, DocumentedAuditCommandJudgesTheWheelhouse) {
  const std::string block = documented_block("cibuildwheel");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(block, m, std::regex("(torchabi audit[^\n]*)"))) << block;
  const std::string command = m[1].str();
  ASSERT_NE(command.find("wheelhouse/*.whl"), std::string::npos) << command;
  // A wheelhouse as cibuildwheel leaves it: the stable wheel passes...
  const std::string good = make_temp_dir();
  fs::create_directories(good + "/wheelhouse");
  fs::copy_file(wheel("stable_ext"), good + "/wheelhouse/" + fs::path(wheel("stable_ext")).filename().string());
  auto ok = shell(command + "\n", good);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  // ...and one unstable wheel among them fails the job.
  fs::copy_file(wheel("legacy_ext"), good + "/wheelhouse/" + fs::path(wheel("legacy_ext")).filename().string());
  auto bad = shell(command + "\n", good);
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("legacy_ext"), std::string::npos) << bad.out;
}

// ---- the Debian package, unpacked into a scratch root ----

TEST(DebianPackage, BuildsUnpacksAndRunsFromItsOwnTree) {
  if (std::system("command -v cpack >/dev/null && command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null") != 0)
    GTEST_SKIP() << "cpack, dpkg-deb or dpkg-shlibdeps (dpkg-dev) is missing";
  const std::string dir = make_temp_dir();
  auto built = shell("cpack --config '" + build_dir() + "/CPackConfig.cmake' -B '" + dir + "/out'\n", dir);
  ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
  std::string deb;
  for (const auto& e : fs::directory_iterator(dir + "/out"))
    if (e.path().extension() == ".deb") deb = e.path().string();
  ASSERT_FALSE(deb.empty()) << built.out;
  // Dependencies computed from the binary (libc6, libstdc++6; libelf and
  // libarchive are linked statically), plus libclang and libzip (loaded at run time).
  auto info = shell("dpkg-deb -f '" + deb + "' Depends\n", dir);
  EXPECT_NE(info.out.find("libclang1-"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("libzip4"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("libc6 (>="), std::string::npos) << info.out;
  ASSERT_EQ(shell("dpkg -x '" + deb + "' root\n", dir).exit_code, 0);
  const std::string bin = dir + "/root/usr/bin/torchabi";
  ASSERT_TRUE(fs::exists(bin));
  size_t runtimes = 0;
  for (const auto& e : fs::directory_iterator(dir + "/root/usr/lib/torchabi-runtime"))
    runtimes += e.path().filename().string().starts_with("libtorchabi-runtime-");
  EXPECT_GE(runtimes, 1u);
  // `scan`'s Dask front end, found next to the binary as ../share/torchabi/scan.py.
  EXPECT_TRUE(fs::exists(dir + "/root/usr/share/torchabi/scan.py"));
  EXPECT_NE(shell("dpkg-deb -f '" + deb + "' Recommends\n", dir).out.find("python3-distributed"), std::string::npos);
  auto version = shell("'" + bin + "' --version\n", dir);
  EXPECT_EQ(version.exit_code, 0) << version.err;
  EXPECT_TRUE(version.out.starts_with("torchabi ")) << version.out;
  // `run` loads the reference runtime installed next to the binary (the
  // first place it looks) and passes the correct fixture's cases.
  auto run = shell("'" + bin + "' run --format json '" + build_dir() + "/fixtures/runtime/good_ops.so' --cases '" +
                       source_dir() + "/fixtures/runtime/good_ops.yaml'\n",
                   dir);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
}

}  // namespace
}  // namespace torchabi::e2e
