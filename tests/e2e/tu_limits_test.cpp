// Bounded work (issue 38): a translation unit past --tu-timeout or
// --tu-memory is killed and reported as not analysed (source-tu-over-limit,
// an error: exit 1), while the other units of the same run are analysed.
#include <fstream>

#include <gtest/gtest.h>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

// An address space torchabi itself, libclang loaded, runs in, which the huge
// unit below needs more than.
constexpr long kInheritedLimitKb = 600000;

// 200,000 small functions: clang needs seconds and hundreds of MiB for it,
// far past the tiny limits the tests give.
std::string write_huge_tu(const std::string& dir) {
  std::ofstream out(dir + "/huge.cpp");
  for (int i = 0; i < 200000; ++i) out << "int f" << i << "(int x) { return x + " << i << "; }\n";
  return dir + "/huge.cpp";
}

void expect_one_over_limit(const RunResult& r, const std::string& huge, const std::string& small,
                           const std::string& reason) {
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-tu-over-limit"), (std::vector<Found>{{huge, 0, 0, ""}})) << r.out;
  for (const auto& f : j["findings"])
    if (f["rule"] == "source-tu-over-limit") {
      EXPECT_EQ(f["severity"], "error");
      EXPECT_NE(f["message"].get<std::string>().find(reason), std::string::npos) << f.dump(1);
    }
  ASSERT_EQ(j["subjects"].size(), 1u) << r.out;  // the small file was analysed
  EXPECT_NE(j["subjects"][0].dump().find(small), std::string::npos) << j["subjects"].dump(1);
}

TEST(TuLimits, PastTheTimeLimitIsNotAnalysedAndTheOthersAre) {
  const std::string dir = make_temp_dir();
  const std::string huge = write_huge_tu(dir);
  const std::string small = write_file(dir, "small.cpp", "int g(int x) { return x; }\n");
  auto r = lint_json({"--tu-timeout", "1", "--jobs", "2", huge, small, "--", "-std=c++17"});
  expect_one_over_limit(r, huge, small, "time limit of 1 s");
}

TEST(TuLimits, PastTheMemoryLimitIsNotAnalysedAndTheOthersAre) {
  const std::string dir = make_temp_dir();
  const std::string huge = write_huge_tu(dir);
  const std::string small = write_file(dir, "small.cpp", "int g(int x) { return x; }\n");
  auto r = lint_json({"--tu-memory", "64M", "--jobs", "2", huge, small, "--", "-std=c++17"});
  expect_one_over_limit(r, huge, small, "64 MiB");
}

// An address-space limit torchabi inherits (ulimit -v) below --tu-memory is
// the one a unit runs under: the unit past it is named with that limit and
// where it came from (not --tu-memory's 8 GiB), the other unit is analysed,
// and nothing reaches the user as bad_alloc or an internal error.
TEST(TuLimits, AnInheritedUlimitBelowTuMemoryIsNamedAsTheLimit) {
  const std::string dir = make_temp_dir();
  const std::string huge = write_huge_tu(dir);
  const std::string small = write_file(dir, "small.cpp", "int g(int x) { return x; }\n");
  const long kb = kInheritedLimitKb;
  auto r = run_torchabi_under_ulimit(kb, {"lint", "--format", "json", "--cache-dir", make_temp_dir(), "--jobs", "2",
                                          huge, small, "--", "-std=c++17"});
  expect_one_over_limit(r, huge, small, "inherited from the environment (ulimit -v " + std::to_string(kb));
  const auto report = r.json();  // held: a range-for over a temporary's member dangles
  for (const auto& f : report["findings"])
    if (f["rule"] == "source-tu-over-limit")
      EXPECT_EQ(f["message"].get<std::string>().find("(--tu-memory raises it)"), std::string::npos) << f.dump(1);
  EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;

  // A --tu-memory below the ulimit is the limit again, named as such.
  auto lower = run_torchabi_under_ulimit(kb, {"lint", "--format", "json", "--cache-dir", make_temp_dir(), "--jobs",
                                              "2", "--tu-memory", "64M", huge, small, "--", "-std=c++17"});
  expect_one_over_limit(lower, huge, small, "64 MiB (--tu-memory raises it)");
}

// The rule's fixture pair: a few lines whose constant evaluation costs clang
// minutes, next to the same code with a short loop, in one run.
TEST(TuLimits, FixturePair) {
  const std::string fires = fixture("source-tu-over-limit/fires.cpp");
  const std::string clean = fixture("source-tu-over-limit/clean.cpp");
  auto r = lint_json({"--tu-timeout", "2", fires, clean, "--", "-std=c++17", "-fconstexpr-steps=2147483647"});
  expect_one_over_limit(r, fires, clean, "time limit of 2 s");
  auto c = lint_json({"--tu-timeout", "2", clean, "--", "-std=c++17"});
  EXPECT_EQ(c.exit_code, 0) << c.err << c.out;
  EXPECT_TRUE(findings_of(c.json(), "source-tu-over-limit").empty()) << c.out;
}

TEST(TuLimits, AMalformedSizeIsAUsageError) {
  auto r = lint_json({"--tu-memory", "lots", "x.cpp"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--tu-memory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace torchabi::e2e::lint
