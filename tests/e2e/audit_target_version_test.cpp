// --target-version: every import introduced after the target is an error;
// the three spellings agree; implausible hex values are rejected.
#include <gtest/gtest.h>

#include "audit_fixtures.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;

TEST(AuditTargetVersion, ImportAfterTargetFires) {
  auto r = run_torchabi({"audit", "--format", "json", "--target-version", "2.10", stable_212_lib()});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto fired = findings_of(r.json(), "version-import-after-target");
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_EQ(fired[0]["location"]["symbol"], "aoti_torch_dtype_float8_e8m0fnu");
  EXPECT_EQ(fired[0]["severity"], "error");
}

TEST(AuditTargetVersion, TargetAtTheFloorIsClean) {
  auto r = run_torchabi({"audit", "--format", "json", "--target-version", "2.12", stable_212_lib()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(findings_of(r.json(), "version-import-after-target").empty());
}

TEST(AuditTargetVersion, SpellingsAgree) {
  for (std::string v : {"2.10", "2.10.0", "0x020a000000000000"}) {
    auto r = run_torchabi({"audit", "--format", "json", "--target-version", v, stable_212_lib()});
    EXPECT_EQ(r.exit_code, 1) << v << ": " << r.err;
    EXPECT_EQ(findings_of(r.json(), "version-import-after-target").size(), 1u) << v;
  }
  auto ok = run_torchabi({"audit", "--target-version", "0x020c000000000000", stable_212_lib()});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;  // 2.12
}

TEST(AuditTargetVersion, ImplausibleHexShowsBothReadings) {
  auto r = run_torchabi({"audit", "--target-version", "0x0210000000000000", stable_212_lib()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--target-version"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("decodes to 2.16"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("if you meant 2.10, write 0x020a000000000000"), std::string::npos) << r.err;
}

TEST(AuditTargetVersion, NotAVersion) {
  auto r = run_torchabi({"audit", "--target-version", "latest", stable_212_lib()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'latest' is not a version"), std::string::npos) << r.err;
}

TEST(AuditTargetVersion, ConfigKeyIsUsedAndTheFlagWins) {
  const std::string dir = make_temp_dir();
  const std::string lib = dir + "/libext.so";
  write_file(dir, "libext.so", read_all(stable_212_lib()));
  write_file(dir, ".torchabi.yaml", "target-version: \"2.10\"\n");
  auto from_config = run_torchabi({"audit", "--format", "json", lib});
  EXPECT_EQ(from_config.exit_code, 1) << from_config.err;
  EXPECT_EQ(findings_of(from_config.json(), "version-import-after-target").size(), 1u);
  auto flag = run_torchabi({"audit", "--format", "json", "--target-version", "2.12", lib});
  EXPECT_EQ(flag.exit_code, 0) << flag.err;

  write_file(dir, ".torchabi.yaml", "target-version: \"0x0210000000000000\"\n");
  auto bad = run_torchabi({"audit", lib});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(".torchabi.yaml: target-version"), std::string::npos) << bad.err;
}
