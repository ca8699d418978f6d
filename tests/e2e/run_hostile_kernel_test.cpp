// Hostile code (issue 38): a kernel that signals its parent, every process it
// may signal (kill(-1)) and its process group cannot reach torchabi, which
// runs the extension in a PID namespace and session of its own; the op is
// reported as failed and the other op still runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_harness.h"

namespace torchabi::e2e {
namespace {

// Whether torchabi can give the extension a PID namespace here (as it tries:
// a user namespace too when not root). Where it cannot, the fixture's
// kill(-1) would reach every process this user may signal (the whole machine
// as root), so the test is skipped rather than run.
bool pid_namespaces_permitted() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(::unshare(CLONE_NEWPID | (::geteuid() == 0 ? 0 : CLONE_NEWUSER)) == 0 ? 0 : 1);
  int status = 0;
  return pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(RunHostileKernel, KillingTheParentAndEveryoneLeavesTorchabiStanding) {
  if (!pid_namespaces_permitted()) GTEST_SKIP() << "no PID namespace can be made here: the fixture would signal every process";
  auto r = run_torchabi({"run", build_dir() + "/fixtures/runtime/bad_kill_parent.so", "--format", "json"});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;  // torchabi itself finished and wrote its report
  auto j = r.json();
  ASSERT_EQ(j["findings"].size(), 1u) << r.out;
  EXPECT_EQ(j["findings"][0]["rule"], "runtime-kernel-crash");
  EXPECT_NE(j["findings"][0]["message"].get<std::string>().find("bad_kill_parent::strike"), std::string::npos)
      << r.out;
  EXPECT_NE(j["subjects"][0].dump().find("passed"), std::string::npos) << r.out;  // `stay` ran after it
}

// A wrapper under which no PID namespace can be made, as in a container
// without CAP_SYS_ADMIN: the capability dropped (as root; otherwise inside a
// user namespace where the user is root). Empty when none works here.
std::vector<std::string> without_pid_namespaces() {
  if (std::system("command -v setpriv >/dev/null 2>&1") != 0) return {};
  std::vector<std::string> w;
  if (::geteuid() != 0) w = {"unshare", "--user", "--map-root-user"};
  for (const char* a : {"setpriv", "--inh-caps=-sys_admin", "--bounding-set=-sys_admin"}) w.push_back(a);
  std::string probe;
  for (const auto& a : w) probe += a + " ";
  // The wrapper must run, and unshare --pid must fail under it.
  if (std::system((probe + "true >/dev/null 2>&1").c_str()) != 0) return {};
  if (std::system((probe + "unshare --pid --fork true >/dev/null 2>&1").c_str()) == 0) return {};
  return w;
}

// Without a PID namespace the extension still runs (in a session of its
// own), and the report says so as a note, in text and JSON, not only in the
// extension's output.
TEST(RunHostileKernel, NoPidNamespaceIsANoteInTheReport) {
  const auto wrapper = without_pid_namespaces();
  if (wrapper.empty()) GTEST_SKIP() << "cannot withhold PID namespaces here (no setpriv, or no user namespace)";
  const std::string ext = build_dir() + "/fixtures/runtime/good_ops.so";
  auto j = run_torchabi_wrapped(wrapper, {"run", ext, "--format", "json"});
  ASSERT_EQ(j.exit_code, 0) << j.err << j.out;
  const auto report = j.json();
  ASSERT_EQ(report["subjects"].size(), 1u) << j.out;
  const auto& facts = report["subjects"][0]["facts"];
  ASSERT_TRUE(facts.contains("note")) << facts.dump(1);
  EXPECT_NE(facts["note"].get<std::string>().find("without a PID namespace of its own"), std::string::npos)
      << facts.dump(1);
  EXPECT_EQ(report["subjects"][0]["verdict"], "PASSED") << j.out;

  auto t = run_torchabi_wrapped(wrapper, {"run", ext});
  ASSERT_EQ(t.exit_code, 0) << t.err << t.out;
  EXPECT_NE(t.out.find("\n  note: the extension ran without a PID namespace of its own"), std::string::npos) << t.out;
  EXPECT_EQ(t.out.find("extension output"), std::string::npos) << t.out;

  // With namespaces (where they can be made) there is no such note.
  if (pid_namespaces_permitted()) {
    auto n = run_torchabi({"run", ext, "--format", "json"});
    ASSERT_EQ(n.exit_code, 0) << n.err << n.out;
    EXPECT_FALSE(n.json()["subjects"][0]["facts"].contains("note")) << n.out;
  }
}

// A process started by the extension's initializer that leaves its session
// and closes every descriptor (a daemon) dies when the run ends: it was in
// the run's PID namespace, whose end takes every process in it down, or,
// where no namespace can be made, it was adopted by the subreaper that runs
// the extension. Its marker stops growing once torchabi has returned.
void expect_no_escapee_outlives_the_run(std::vector<std::string> wrapper) {
  const std::string marker = make_temp_dir() + "/marker";
  wrapper.insert(wrapper.begin(), {"env", "TORCHABI_ESCAPE_MARKER=" + marker});
  auto r = run_torchabi_wrapped(wrapper,
                                {"run", build_dir() + "/fixtures/runtime/bad_escape_session.so", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(r.json()["subjects"][0]["verdict"], "PASSED") << r.out;
  ASSERT_TRUE(std::filesystem::exists(marker)) << "the escapee never started: the test would prove nothing";
  const auto size_at_return = std::filesystem::file_size(marker);
  ::usleep(1000 * 1000);  // ten of its writes, were it alive
  EXPECT_EQ(std::filesystem::file_size(marker), size_at_return) << "a process of the extension outlived the run";
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream comm(entry.path() / "comm");
    std::string name;
    if (comm && std::getline(comm, name)) {
      EXPECT_NE(name, "tabi-escapee") << entry.path();
    }
  }
}

TEST(RunHostileKernel, AProcessThatLeavesItsSessionDiesWithTheRun) {
  if (!pid_namespaces_permitted()) GTEST_SKIP() << "no PID namespace can be made here";
  expect_no_escapee_outlives_the_run({});
}

TEST(RunHostileKernel, WithoutAPidNamespaceAnOrphanedProcessDiesWithTheRunToo) {
  const auto wrapper = without_pid_namespaces();
  if (wrapper.empty()) GTEST_SKIP() << "cannot withhold PID namespaces here (no setpriv, or no user namespace)";
  expect_no_escapee_outlives_the_run(wrapper);
}

}  // namespace
}  // namespace torchabi::e2e
