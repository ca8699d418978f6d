// audit on macOS (Mach-O, universal) and Windows (PE) libraries and wheels:
// the fixture libraries of fixtures/foreign_ext get the same verdicts,
// floors and findings as their ELF twin (fixtures/stable_ext).
#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "audit_fixtures.h"

namespace torchabi::e2e::audit {
namespace {

namespace fs = std::filesystem;

std::string foreign(const std::string& name) { return fixture("foreign_ext/" + name); }
std::string foreign_wheel(const std::string& dist, const std::string& tag) {
  return fixture("wheels/" + dist + "-1.0-cp311-cp311-" + tag + ".whl");
}

#define REQUIRE_FOREIGN()                                   \
  if (!fs::exists(foreign("libforeign_stable.dylib")))      \
  GTEST_SKIP() << "fixtures/foreign_ext not built (needs clang-19 and lld-19)"

std::map<std::string, nlohmann::json> subjects_by_path(const nlohmann::json& j) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& s : j["subjects"]) out[s["path"].get<std::string>()] = s;
  return out;
}

std::string fact(const nlohmann::json& subject, const std::string& key) {
  return subject["facts"].value(key, std::string("(absent)"));
}

TEST(AuditForeign, VerdictsAndFloorsMatchTheElfTwin) {
  REQUIRE_FOREIGN();
  auto r = run_torchabi({"audit", "--format", "json", foreign("libforeign_stable.dylib"), foreign("foreign_stable.dll"),
                         foreign("libforeign_2_12.dylib"), foreign("foreign_2_12.dll"), foreign("libforeign_unstable.dylib"),
                         foreign("foreign_unstable.dll")});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // the unstable pair
  auto s = subjects_by_path(r.json());
  ASSERT_EQ(s.size(), 6u) << r.out;
  for (const char* lib : {"libforeign_stable.dylib", "foreign_stable.dll"}) {
    EXPECT_EQ(s[foreign(lib)]["verdict"], "STABLE") << lib;
    EXPECT_EQ(s[foreign(lib)]["floor"], "2.10") << lib;
  }
  for (const char* lib : {"libforeign_2_12.dylib", "foreign_2_12.dll"}) EXPECT_EQ(s[foreign(lib)]["floor"], "2.12") << lib;
  for (const char* lib : {"libforeign_unstable.dylib", "foreign_unstable.dll"})
    EXPECT_EQ(s[foreign(lib)]["verdict"], "UNSTABLE") << lib;
  EXPECT_EQ(fact(s[foreign("libforeign_stable.dylib")], "format"), "Mach-O");
  EXPECT_EQ(fact(s[foreign("libforeign_stable.dylib")], "macOS deployment target"), "11.0");
  EXPECT_EQ(fact(s[foreign("libforeign_stable.dylib")], "needed"), "@rpath/libtorch_cpu.dylib");
  EXPECT_EQ(fact(s[foreign("foreign_stable.dll")], "format"), "PE/COFF");
  EXPECT_EQ(fact(s[foreign("foreign_stable.dll")], "needed"), "torch_cpu.dll");
  // The unstable import, demangled from each platform's mangling.
  std::set<std::string> messages;
  const auto j = r.json();  // kept: a loop over a temporary's member would dangle
  for (const auto& f : j["findings"])
    if (f["rule"] == "binary-unstable-import") messages.insert(f["message"].get<std::string>());
  ASSERT_EQ(messages.size(), 2u);
  for (const auto& m : messages) EXPECT_NE(m.find("c10::detail::torchCheckFail"), std::string::npos) << m;
}

TEST(AuditForeign, TargetVersionChecksApplyToEveryFormat) {
  REQUIRE_FOREIGN();
  auto r = run_torchabi({"audit", "--format", "json", "--target-version", "2.10", foreign("libforeign_2_12.dylib"),
                         foreign("foreign_2_12.dll")});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  std::set<std::string> files;
  const auto j = r.json();
  for (const auto& f : j["findings"]) files.insert(fs::path(f["location"]["file"].get<std::string>()).filename());
  EXPECT_EQ(files, (std::set<std::string>{"libforeign_2_12.dylib", "foreign_2_12.dll"})) << r.out;
}

TEST(AuditForeign, UniversalBinaryReportsEachArchitecture) {
  REQUIRE_FOREIGN();
  auto r = run_torchabi({"audit", "--format", "json", foreign("libforeign_universal.dylib")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto s = subjects_by_path(r.json());
  ASSERT_EQ(s.size(), 2u) << r.out;
  EXPECT_EQ(fact(s[foreign("libforeign_universal.dylib") + " (arm64)"], "architecture"), "arm64");
  EXPECT_EQ(fact(s[foreign("libforeign_universal.dylib") + " (x86-64)"], "architecture"), "x86-64");
}

TEST(AuditForeign, MacosAndWindowsWheelsAreAuditedMemberByMember) {
  REQUIRE_FOREIGN();
  const std::string mac = foreign_wheel("mac212_too_old", "macosx_11_0_arm64");
  const std::string uni = foreign_wheel("mac_universal", "macosx_11_0_universal2");
  const std::string win = foreign_wheel("win_unstable", "win_amd64");
  auto r = run_torchabi({"audit", "--format", "json", mac, uni, win});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  std::set<std::pair<std::string, std::string>> found;  // rule, wheel
  for (const auto& f : j["findings"])
    found.emplace(f["rule"].get<std::string>(), fs::path(f["location"]["file"].get<std::string>()).filename());
  EXPECT_EQ(found, (std::set<std::pair<std::string, std::string>>{
                       {"binary-wheel-requires-too-old", fs::path(mac).filename()},
                       {"binary-unstable-import", fs::path(win).filename()}}))
      << j.dump(1);
  auto s = subjects_by_path(j);
  EXPECT_EQ(s[mac]["floor"], "2.12");
  EXPECT_EQ(s[uni]["verdict"], "STABLE");
  EXPECT_EQ(s[uni]["floor_set_by"].size(), 1u) << s[uni].dump();  // both slices, one import
  EXPECT_EQ(s[win]["verdict"], "UNSTABLE");
  EXPECT_TRUE(s.count(win + "!win_unstable/_C.cp311-win_amd64.pyd")) << j.dump(1);
  // SARIF carries the same findings.
  auto sarif = run_torchabi({"audit", "--format", "sarif", win});
  EXPECT_EQ(sarif.json()["runs"][0]["results"].size(), 1u) << sarif.out;
}

TEST(AuditForeign, DamagedLibrariesAreOneLineEachAndTheOthersStillAudited) {
  REQUIRE_FOREIGN();
  const std::string dir = make_temp_dir();
  const std::string whole = read_all(foreign("libforeign_stable.dylib"));
  const std::string cut = write_file(dir, "cut.dylib", whole.substr(0, whole.size() / 3));
  const std::string dll = read_all(foreign("foreign_stable.dll"));
  const std::string cut_dll = write_file(dir, "cut.dll", dll.substr(0, 300));
  auto r = run_torchabi({"audit", "--format", "json", cut, cut_dll, foreign("foreign_stable.dll")});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  EXPECT_NE(r.err.find(cut + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(cut_dll + ":"), std::string::npos) << r.err;
  EXPECT_EQ(r.json()["subjects"].size(), 1u) << r.out;
}

TEST(AuditForeign, DirectoriesFindDylibsAndDlls) {
  REQUIRE_FOREIGN();
  auto r = run_torchabi({"audit", "--format", "json", fixture("foreign_ext")});
  auto s = subjects_by_path(r.json());
  EXPECT_TRUE(s.count(foreign("foreign_stable.dll")));
  EXPECT_TRUE(s.count(foreign("libforeign_stable.dylib")));
}

}  // namespace
}  // namespace torchabi::e2e::audit
