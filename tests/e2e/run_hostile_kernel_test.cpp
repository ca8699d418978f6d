// Hostile code (issue 38): a kernel that signals its parent, every process it
// may signal (kill(-1)) and its process group cannot reach torchabi, which
// runs the extension in a PID namespace and session of its own; the op is
// reported as failed and the other op still runs.
#include <gtest/gtest.h>
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

}  // namespace
}  // namespace torchabi::e2e
