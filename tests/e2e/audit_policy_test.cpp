// Binary findings through the shared policy: suppressions by library and
// symbol glob (with a reason), and a baseline that accepts today's findings.
#include <gtest/gtest.h>

#include "audit_fixtures.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;

TEST(AuditPolicy, SuppressByLibraryAndSymbolGlob) {
  if (!have_legacy()) GTEST_SKIP() << "libtorch-dev not installed";
  const std::string dir = make_temp_dir();
  write_file(dir, "liblegacy_ext.so", read_all(legacy_lib()));
  write_file(dir, ".torchabi.yaml",
             "suppress:\n"
             "  - rule: binary-unstable-import\n"
             "    library: \"liblegacy_*.so\"\n"
             "    symbol: \"c10::*\"\n"
             "    reason: c10 calls go away with the port to torch::stable\n");
  auto r = run_torchabi({"audit", "--format", "json", dir + "/liblegacy_ext.so"});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // at:: and torch:: imports remain
  auto j = r.json();
  EXPECT_GT(j["summary"]["suppressed"].get<int>(), 0);
  for (const auto& f : findings_of(j, "binary-unstable-import"))
    EXPECT_FALSE(f["location"]["symbol"].get<std::string>().starts_with("c10::")) << f.dump();
}

TEST(AuditPolicy, BaselineAcceptsTodaysFindings) {
  const std::string dir = make_temp_dir();
  const std::string baseline = dir + "/baseline.json";
  auto first = run_torchabi({"audit", "--target-version", "2.10", "--write-baseline", baseline, stable_212_lib()});
  EXPECT_EQ(first.exit_code, 1) << first.err;
  auto second = run_torchabi({"audit", "--format", "json", "--target-version", "2.10", "--baseline", baseline,
                              stable_212_lib()});
  EXPECT_EQ(second.exit_code, 0) << second.err;
  auto j = second.json();
  EXPECT_TRUE(j["findings"].empty());
  EXPECT_EQ(j["summary"]["baselined"], 1);
}

TEST(AuditPolicy, MarkdownSummaryForAPullRequest) {
  auto r = run_torchabi({"audit", "--format", "md", wheel("ext212_too_old")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("binary-wheel-requires-too-old"), std::string::npos) << r.out;
}
