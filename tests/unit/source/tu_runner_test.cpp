// Child-process isolation: results come back in order whatever the
// parallelism, and a crash or an exception fails only its own item.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

#include "analyzers/source/tu_runner.h"

namespace torchabi::source {
namespace {

TEST(TuRunner, ResultsInOrderAtAnyParallelism) {
  for (unsigned jobs : {1u, 2u, 8u}) {
    auto r = run_isolated(10, jobs, [](size_t i) { return std::string(i * 1000, char('a' + i)); });
    ASSERT_EQ(r.size(), 10u);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_TRUE(r[i].ok);
      EXPECT_EQ(r[i].output, std::string(i * 1000, char('a' + i)));
    }
  }
}

TEST(TuRunner, CrashAndExceptionFailOnlyTheirItem) {
  auto r = run_isolated(3, 2, [](size_t i) -> std::string {
    if (i == 0) std::raise(SIGSEGV);
    if (i == 1) throw std::runtime_error("bad input");
    return "fine";
  });
  EXPECT_FALSE(r[0].ok);
  EXPECT_NE(r[0].error.find("signal 11"), std::string::npos) << r[0].error;
  EXPECT_FALSE(r[1].ok);
  EXPECT_EQ(r[1].error, "bad input");
  EXPECT_TRUE(r[2].ok);
  EXPECT_EQ(r[2].output, "fine");
}

TEST(TuRunner, LargeOutputsArriveWhole) {
  auto r = run_isolated(2, 2, [](size_t) { return std::string(3 << 20, 'x'); });
  for (const auto& x : r) EXPECT_EQ(x.output.size(), size_t(3) << 20);
}

// The parent's hook runs once, while the children work: each child waits for
// the file the hook creates, so a hook run only after them would leave every
// child reporting that it never saw it.
TEST(TuRunner, WhileWaitingRunsOnceWhileChildrenWork) {
  const std::filesystem::path flag =
      std::filesystem::temp_directory_path() / ("torchabi-runner-hook-" + std::to_string(::getpid()));
  std::filesystem::remove(flag);
  int calls = 0;
  auto r = run_isolated(
      4, 2,
      [&](size_t) -> std::string {
        for (int i = 0; i < 500; ++i) {
          if (std::filesystem::exists(flag)) return "saw";
          ::usleep(10000);
        }
        return "never saw";
      },
      [&] {
        ++calls;
        std::ofstream(flag) << "x";
      });
  EXPECT_EQ(calls, 1);
  for (const auto& x : r) EXPECT_EQ(x.output, "saw");
  std::filesystem::remove(flag);

  calls = 0;
  run_isolated(0, 2, [](size_t) { return std::string(); }, [&] { ++calls; });
  EXPECT_EQ(calls, 0) << "nothing to wait for";
}

// A thread that must not run during a fork is waited for by every runner.
TEST(TuRunner, ForkBarrierIsWaitedForBeforeForking) {
  int waits = 0;
  set_fork_barrier([&] { ++waits; });
  run_isolated(0, 1, [](size_t) { return std::string(); });
  EXPECT_EQ(waits, 0) << "nothing forks";
  auto r = run_isolated(2, 2, [&](size_t) { return std::to_string(waits); });
  EXPECT_EQ(waits, 1);
  EXPECT_EQ(r[0].output, "1") << "the children start after the barrier";
  set_fork_barrier({});
  run_isolated(1, 1, [](size_t) { return std::string(); });
  EXPECT_EQ(waits, 1) << "cleared";
}

// Results are framed: an output whatever its bytes (the error tag, the
// trailer's own characters, nothing at all) comes back exactly.
TEST(TuRunner, OutputsOfAnyBytesComeBackExactly) {
  const std::vector<std::string> outs = {"", std::string("\x02torchabi-done\x02"), std::string("a\x01b"),
                                         std::string(1, '\0')};
  auto r = run_isolated(outs.size(), 2, [&](size_t i) { return outs[i]; });
  for (size_t i = 0; i < outs.size(); ++i) {
    EXPECT_TRUE(r[i].ok) << i;
    EXPECT_EQ(r[i].output, outs[i]) << i;
  }
}

}  // namespace
}  // namespace torchabi::source
