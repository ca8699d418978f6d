// Signals (issue 38): SIGINT or SIGTERM to `lint` while it parses kills its
// analysis processes and removes its temporary shared-preamble directory
// before it exits with 128 + the signal's number; nothing is left behind.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_harness.h"

extern char** environ;

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;

// Processes whose command line mentions `text` (the forked analysis
// processes have torchabi's own command line).
int processes_mentioning(const std::string& text) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    const std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    n += cmd.find(text) != std::string::npos;
  }
  return n;
}

bool empty_dir(const std::string& dir) { return fs::is_empty(dir); }

bool has_preamble_dir(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().starts_with("torchabi-preamble-")) return true;
  return false;
}

void interrupt_lint(int sig) {
  const std::string dir = make_temp_dir();
  const std::string tmp = dir + "/tmp";  // torchabi's TMPDIR: whatever it leaves is here
  fs::create_directories(tmp);
  const std::string huge = dir + "/huge_interrupted.cpp";
  {
    std::ofstream out(huge);
    for (int i = 0; i < 200000; ++i) out << "int f" << i << "(int x) { return x + " << i << "; }\n";
  }
  std::ofstream(dir + "/small.cpp") << "int g(int x) { return x; }\n";
  std::vector<std::string> args = {torchabi_binary(), "lint", "--no-cache", "--jobs", "2", huge, dir + "/small.cpp",
                                   "--", "-std=c++17"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The results cache (unused with --no-cache) goes elsewhere than TMPDIR.
  std::vector<std::string> env_s = {"TMPDIR=" + tmp, "PATH=/usr/bin:/bin", "HOME=" + dir,
                                    "XDG_CACHE_HOME=" + dir + "/cache"};
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, (dir + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = -1;
  ASSERT_EQ(::posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&fa);
  // Parsing the huge file takes seconds: wait for its preamble directory and
  // its analysis processes, then interrupt.
  bool started = false;
  for (int i = 0; i < 300 && !started; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    started = has_preamble_dir(tmp) && processes_mentioning(huge) >= 2;
  }
  ASSERT_TRUE(started) << "lint never started parsing";
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(pid, sig);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(empty_dir(tmp)) << fs::directory_iterator(tmp)->path();
  EXPECT_EQ(processes_mentioning(huge), 0) << "an analysis process outlived lint";
}

TEST(LintInterrupt, SigintLeavesNoProcessAndNoTemporaryDirectory) { interrupt_lint(SIGINT); }

TEST(LintInterrupt, SigtermLeavesNoProcessAndNoTemporaryDirectory) { interrupt_lint(SIGTERM); }

}  // namespace
}  // namespace torchabi::e2e
