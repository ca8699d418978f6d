// Child-process isolation: results come back in order whatever the
// parallelism, and a crash or an exception fails only its own item.
#include <gtest/gtest.h>

#include <csignal>
#include <stdexcept>

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

}  // namespace
}  // namespace torchabi::source
