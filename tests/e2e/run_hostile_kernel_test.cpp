// Hostile code (issue 38): a kernel that signals its parent, every process it
// may signal (kill(-1)) and its process group cannot reach torchabi, which
// runs the extension in a PID namespace and session of its own; the op is
// reported as failed and the other op still runs.
#include <gtest/gtest.h>

#include "cli_harness.h"

namespace torchabi::e2e {
namespace {

TEST(RunHostileKernel, KillingTheParentAndEveryoneLeavesTorchabiStanding) {
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
