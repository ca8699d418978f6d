// Wheels and directory trees: members audited in memory, Requires-Dist
// cross-checked with the floor, directories walked for *.so and *.whl.
#include <algorithm>

#include <gtest/gtest.h>

#include "audit_fixtures.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;
namespace fs = std::filesystem;

TEST(AuditWheel, RequirementBelowTheFloorFires) {
  const std::string w = wheel("ext212_too_old");
  auto r = run_torchabi({"audit", "--format", "json", w});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  auto fired = findings_of(j, "binary-wheel-requires-too-old");
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_EQ(fired[0]["location"]["file"], w);
  EXPECT_EQ(fired[0]["location"]["member"], "ext212_too_old-1.0.dist-info/METADATA");
  EXPECT_NE(fired[0]["message"].get<std::string>().find("allows torch 2.10"), std::string::npos);
  auto ws = subject(j, w);
  EXPECT_EQ(ws["kind"], "wheel");
  EXPECT_EQ(ws["floor"], "2.12");
  auto lib = subject(j, w + "!ext212_too_old/_C.cpython-311-x86_64-linux-gnu.so");
  EXPECT_EQ(lib["verdict"], "STABLE");
}

TEST(AuditWheel, RequirementAtTheFloorIsClean) {
  for (std::string dist : {"ext212_ok", "stable_ext"}) {
    auto r = run_torchabi({"audit", "--format", "json", wheel(dist)});
    EXPECT_EQ(r.exit_code, 0) << dist << ": " << r.err;
    EXPECT_TRUE(r.json()["findings"].empty()) << dist;
  }
}

TEST(AuditWheel, TorchOnlyUnderAnExtraIsNoRequirement) {
  auto r = run_torchabi({"audit", "--format", "json", wheel("ext212_unpinned")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto fired = findings_of(r.json(), "binary-wheel-requires-too-old");
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_NE(fired[0]["message"].get<std::string>().find("does not require torch"), std::string::npos);
}

TEST(AuditWheel, LegacyWheelIsUnstable) {
  if (!have_legacy()) GTEST_SKIP() << "libtorch-dev not installed";
  auto r = run_torchabi({"audit", "--format", "json", wheel("legacy_ext")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(subject(j, wheel("legacy_ext"))["verdict"], "UNSTABLE");
  auto unstable = findings_of(j, "binary-unstable-import");
  ASSERT_FALSE(unstable.empty());
  EXPECT_EQ(unstable[0]["location"]["member"], "legacy_ext/_C.cpython-311-x86_64-linux-gnu.so");
}

TEST(AuditWheel, DirectoryWalkFindsWheelsAndLibraries) {
  const std::string dir = make_temp_dir();
  fs::create_directories(dir + "/site-packages/stable_ext");
  fs::create_directories(dir + "/dist");
  fs::copy_file(stable_lib(), dir + "/site-packages/stable_ext/_C.cpython-311-x86_64-linux-gnu.so");
  fs::copy_file(wheel("ext212_ok"), dir + "/dist/ext212_ok-1.0-cp311-cp311-linux_x86_64.whl");
  write_file(dir + "/site-packages/stable_ext", "__init__.py", "");
  auto r = run_torchabi({"audit", "--format", "json", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["subjects"].size(), 3u);  // the wheel, its library, the loose library
  EXPECT_EQ(j["subjects"][0]["kind"], "wheel");
  EXPECT_EQ(j["subjects"][2]["path"], dir + "/site-packages/stable_ext/_C.cpython-311-x86_64-linux-gnu.so");
}

TEST(AuditWheel, FixtureWheelDirectoryAsAWhole) {
  auto r = run_torchabi({"audit", "--format", "json", fixture("wheels")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  // ext212_too_old and ext212_unpinned; with the cross-built fixtures, the macOS one too.
  std::vector<std::string> too_old;
  for (const auto& f : findings_of(j, "binary-wheel-requires-too-old"))
    too_old.push_back(std::filesystem::path(f["location"]["file"].get<std::string>()).filename().string());
  std::sort(too_old.begin(), too_old.end());
  std::vector<std::string> expected = {"ext212_too_old-1.0-cp311-cp311-linux_x86_64.whl",
                                       "ext212_unpinned-1.0-cp311-cp311-linux_x86_64.whl"};
  if (std::filesystem::exists(fixture("wheels/mac212_too_old-1.0-cp311-cp311-macosx_11_0_arm64.whl")))
    expected.push_back("mac212_too_old-1.0-cp311-cp311-macosx_11_0_arm64.whl");
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(too_old, expected);
  EXPECT_TRUE(j["errors"].empty());
}
