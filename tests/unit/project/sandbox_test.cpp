// The confinement of repository code (environment/sandbox.h,
// build_environment.h): a script run through run_timed with the build
// environment cannot reach the network, write outside its scratch tree, see
// the original project or torchabi's environment, outlive its run (setsid
// included), or signal torchabi. Each probe is a shell command whose effect
// the test looks for outside the sandbox.
#include <arpa/inet.h>
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include "inputs/project/environment/build_environment.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/timed_child.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

#define SKIP_WITHOUT_SANDBOX()                                               \
  do {                                                                       \
    std::string why;                                                         \
    if (!sandbox_available(&why)) GTEST_SKIP() << "no namespaces: " << why;  \
  } while (0)

// A scratch tree and an "original project" next to it, and the environment
// a build script would get for them.
struct Sandboxed {
  ScratchDir scratch{"sandbox-test"};
  ScratchDir original{"sandbox-orig"};
  BuildEnvironment env;
  Sandboxed() {
    std::ofstream(fs::path(original.path()) / "setup.py") << "# the user's file\n";
    env = make_build_environment({fs::canonical(scratch.path()).string(), original.path(), "", {}, false});
    hand_over_writable(env.confinement);
  }
  ChildResult run(const std::string& script, int timeout = 30) {
    return run_timed({"/bin/sh", "-c", script}, scratch.path(), timeout, &env.confinement);
  }
};

TEST(Sandbox, WritesOnlyItsScratchTree) {
  SKIP_WITHOUT_SANDBOX();
  Sandboxed s;
  const fs::path outside = fs::temp_directory_path() / ("torchabi-sandbox-outside-" + std::to_string(getpid()));
  const std::string script = "touch " + outside.string() + " 2>/dev/null && echo WROTE_TMP; "
                             "touch " + s.original.path() + "/leak 2>/dev/null && echo WROTE_ORIGINAL; "
                             "touch /usr/leak 2>/dev/null && echo WROTE_USR; "
                             "touch \"$HOME/ok\" && echo WROTE_HOME; "
                             "touch ok && echo WROTE_SCRATCH";
  const ChildResult r = s.run(script);
  ASSERT_TRUE(r.started) << r.output;
  EXPECT_EQ(r.output.find("WROTE_TMP"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("WROTE_ORIGINAL"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("WROTE_USR"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("WROTE_HOME"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("WROTE_SCRATCH"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(outside));
  EXPECT_FALSE(fs::exists(fs::path(s.original.path()) / "leak"));
  EXPECT_TRUE(fs::exists(fs::path(s.scratch.path()) / "ok"));
}

TEST(Sandbox, TheOriginalProjectAndHomeDirectoriesAreHidden) {
  SKIP_WITHOUT_SANDBOX();
  Sandboxed s;
  const ChildResult r = s.run("test -e " + s.original.path() + "/setup.py && echo SEES_ORIGINAL; "
                              "find /root /home -mindepth 1 2>/dev/null | grep -q . && echo SEES_HOMES; "
                              "cat /etc/shadow >/dev/null 2>&1 && echo READS_SHADOW; "
                              "for p in /proc/[0-9]*; do readlink $p/cwd; done 2>/dev/null | grep -q '" +
                              s.original.path() + "' && echo FINDS_ORIGINAL_CWD; echo done");
  ASSERT_TRUE(r.started) << r.output;
  EXPECT_NE(r.output.find("done"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("SEES_ORIGINAL"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("SEES_HOMES"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("FINDS_ORIGINAL_CWD"), std::string::npos) << r.output;
  if (geteuid() == 0) EXPECT_EQ(r.output.find("READS_SHADOW"), std::string::npos) << r.output;
}

TEST(Sandbox, GetsOnlyTheBuildEnvironmentNeverTorchabisSecrets) {
  SKIP_WITHOUT_SANDBOX();
  ::setenv("GITHUB_TOKEN", "ghp_secret_for_the_test", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "aws_secret_for_the_test", 1);
  Sandboxed s;
  const ChildResult r = s.run("env");
  ::unsetenv("GITHUB_TOKEN");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  ASSERT_TRUE(r.started) << r.output;
  EXPECT_EQ(r.output.find("secret_for_the_test"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("TORCH_CUDA_ARCH_LIST="), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("HOME=" + fs::canonical(s.scratch.path()).string() + "/home"), std::string::npos) << r.output;
}

TEST(Sandbox, ReachesNoNetworkNotEvenLoopback) {
  SKIP_WITHOUT_SANDBOX();
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  Sandboxed s;
  const ChildResult r = s.run("/usr/bin/python3 -c \"import socket\ntry:\n socket.create_connection(('127.0.0.1', " +
                              std::to_string(port) + "), timeout=3).sendall(b'leak'); print('CONNECTED')\n"
                              "except OSError as e: print('REFUSED', e)\" 2>&1");
  ASSERT_TRUE(r.started) << r.output;
  EXPECT_EQ(r.output.find("CONNECTED"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("REFUSED"), std::string::npos) << r.output;
  pollfd p{listener, POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 200), 0) << "the listener outside received a connection";
  ::close(listener);
}

TEST(Sandbox, NothingOutlivesTheRunNotEvenASetsidChild) {
  SKIP_WITHOUT_SANDBOX();
  Sandboxed s;
  const fs::path late = fs::path(s.scratch.path()) / "late";
  const ChildResult r = s.run("setsid sh -c 'sleep 2; touch " + late.string() + "' </dev/null >/dev/null 2>&1 & echo started");
  ASSERT_TRUE(r.started) << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));
  EXPECT_FALSE(fs::exists(late)) << "a setsid child outlived the run";
}

TEST(Sandbox, CannotSignalTorchabi) {
  SKIP_WITHOUT_SANDBOX();
  Sandboxed s;
  // Its parent is our init (PID 1 of its namespace), which ignores it;
  // torchabi's PID is not in its namespace at all.
  const ChildResult r = s.run("kill -9 $PPID; kill -9 " + std::to_string(getpid()) + " 2>/dev/null; echo alive");
  ASSERT_TRUE(r.started) << r.output;
  EXPECT_NE(r.output.find("alive"), std::string::npos) << r.output;
}

TEST(Sandbox, TheTimeLimitKillsTheWholeTree) {
  SKIP_WITHOUT_SANDBOX();
  Sandboxed s;
  const fs::path late = fs::path(s.scratch.path()) / "late";
  const ChildResult r = s.run("setsid sh -c 'sleep 3; touch " + late.string() + "' & sleep 30", /*timeout=*/1);
  EXPECT_TRUE(r.timed_out);
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  EXPECT_FALSE(fs::exists(late));
}

}  // namespace
}  // namespace torchabi::inputs

namespace torchabi::inputs {
namespace {

// A pyenv shim picks the interpreter the project's .python-version names
// (uv init writes one): the build script runs with that one, as the user's
// own `python3 setup.py` would, not with the global one.
TEST(BuildEnvironment, AShimIsResolvedInTheProjectsDirectory) {
  const char* home = std::getenv("HOME");
  const fs::path shim = fs::path(home ? home : "/nonexistent") / ".pyenv/shims/python3";
  const fs::path versions = fs::path(home ? home : "/nonexistent") / ".pyenv/versions";
  std::error_code ec;
  if (!fs::exists(shim, ec) || !fs::is_directory(versions, ec)) GTEST_SKIP() << "no pyenv here";
  std::vector<std::string> installed;
  for (const auto& v : fs::directory_iterator(versions, ec))
    if (fs::exists(v.path() / "bin/python3", ec)) installed.push_back(v.path().filename().string());
  if (installed.size() < 2) GTEST_SKIP() << "pyenv has fewer than two interpreters";
  std::sort(installed.begin(), installed.end());
  ScratchDir scratch("probe-scratch"), project("probe-project");
  for (const auto& version : {installed.front(), installed.back()}) {
    std::ofstream(fs::path(project.path()) / ".python-version") << version << "\n";
    const BuildEnvironment env =
        make_build_environment({fs::canonical(scratch.path()).string(), project.path(), shim.string(), {}, false});
    EXPECT_EQ(fs::path(env.python).parent_path().parent_path().filename().string(), version) << env.python;
  }
}

}  // namespace
}  // namespace torchabi::inputs
