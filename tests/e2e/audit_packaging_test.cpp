// audit on wheels whose tags make promises (fixtures/python_ext): CPython
// abi3, manylinux/musllinux glibc, the macOS deployment target and the
// architecture. Each fixture wheel keeps or breaks exactly one promise.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "audit_fixtures.h"

namespace torchabi::e2e::audit {
namespace {

namespace fs = std::filesystem;

// The one fixture wheel whose file name starts with "<dist>-1.0-".
std::string packaging_wheel(const std::string& dist) {
  const fs::path dir = fixture("wheels");
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().starts_with(dist + "-1.0-")) return e.path().string();
  return dir / (dist + "-missing.whl");
}

#define REQUIRE_PYTHON_EXT()                                        \
  if (!fs::exists(fixture("python_ext/pymod_honest.abi3.so")))      \
  GTEST_SKIP() << "fixtures/python_ext not built (needs clang-19 and lld-19)"

std::multiset<std::string> rules_of(const nlohmann::json& j) {
  std::multiset<std::string> out;
  for (const auto& f : j["findings"]) out.insert(f["rule"].get<std::string>());
  return out;
}

struct Case {
  const char* dist;
  std::multiset<std::string> rules;
};

TEST(AuditPackaging, EachWheelKeepsOrBreaksItsPromise) {
  REQUIRE_PYTHON_EXT();
  const std::vector<Case> cases = {
      {"abi3_honest", {}},
      {"abi3_newer_ok", {}},
      {"abi3_newer", {"binary-abi3-newer-than-tag"}},
      {"abi3_lying", {"binary-abi3-non-limited-api"}},
      {"glibc_ok", {}},
      {"glibc_new", {"binary-glibc-newer-than-tag"}},  // manylinux2014 == manylinux_2_17: one finding
      {"glibc_musl", {"binary-glibc-newer-than-tag"}},
      {"wrong_arch", {"binary-arch-not-in-tag"}},
      {"mac_abi3", {}},
      {"mac_minos14", {"binary-macos-newer-than-tag"}},
      {"win_abi3_honest", {}},
      {"win_abi3_lying", {"binary-abi3-non-limited-api", "binary-abi3-non-limited-api"}},  // python311.dll, imports
  };
  for (const auto& c : cases) {
    auto r = run_torchabi({"audit", "--format", "json", packaging_wheel(c.dist)});
    EXPECT_EQ(r.exit_code, c.rules.empty() ? 0 : 1) << c.dist << "\n" << r.out << r.err;
    EXPECT_EQ(rules_of(r.json()), c.rules) << c.dist << "\n" << r.out;
  }
}

TEST(AuditPackaging, FindingsNameTheMemberAndTheEvidence) {
  REQUIRE_PYTHON_EXT();
  auto r = run_torchabi({"audit", "--format", "json", packaging_wheel("abi3_newer"), packaging_wheel("glibc_new")});
  const auto j = r.json();
  ASSERT_EQ(j["findings"].size(), 2u) << r.out;
  for (const auto& f : j["findings"]) {
    const std::string msg = f["message"], member = f["location"]["member"];
    if (f["rule"] == "binary-abi3-newer-than-tag") {
      EXPECT_EQ(member, "abi3_newer/_C.abi3.so");
      EXPECT_NE(msg.find("PyModule_AddType (3.10)"), std::string::npos) << msg;
      EXPECT_NE(f["help"].get<std::string>().find("cp310-abi3"), std::string::npos);
    } else {
      EXPECT_EQ(member, "glibc_new/_C.cpython-311-x86_64-linux-gnu.so");
      EXPECT_NE(msg.find("GLIBC_2.34 (libc.so.6)"), std::string::npos) << msg;
    }
  }
}

TEST(AuditPackaging, CPythonAbiFactOnEveryModule) {
  REQUIRE_PYTHON_EXT();
  auto r = run_torchabi({"audit", "--format", "json", packaging_wheel("abi3_honest"), packaging_wheel("win_abi3_honest"),
                         packaging_wheel("mac_abi3")});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  size_t modules = 0;
  const auto j = r.json();  // kept: a loop over a temporary's member would dangle
  for (const auto& s : j["subjects"]) {
    if (s["kind"] == "wheel") {
      EXPECT_NE(s["facts"].value("tags", "").find("-abi3-"), std::string::npos) << s.dump();
      continue;
    }
    ++modules;
    EXPECT_NE(s["facts"].value("CPython ABI", "").find("abi3 (CPython >= 3.9"), std::string::npos) << s.dump();
  }
  EXPECT_EQ(modules, 3u);
}

TEST(AuditPackaging, ModulesOutsideWheelsAreJudgedByTheirName) {
  REQUIRE_PYTHON_EXT();
  // No tag, so no minimum: only what is outside the stable ABI fires.
  auto r = run_torchabi({"audit", "--format", "json", fixture("python_ext/pymod_lying.abi3.so"),
                         fixture("python_ext/pymod_newer.abi3.so")});
  EXPECT_EQ(rules_of(r.json()), std::multiset<std::string>{"binary-abi3-non-limited-api"}) << r.out;
}

TEST(AuditPackaging, SarifCarriesTheNewRules) {
  REQUIRE_PYTHON_EXT();
  auto r = run_torchabi({"audit", "--format", "sarif", packaging_wheel("mac_minos14"), packaging_wheel("abi3_lying")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = r.json();
  std::set<std::string> ids;
  for (const auto& res : j["runs"][0]["results"]) ids.insert(res["ruleId"].get<std::string>());
  EXPECT_EQ(ids, (std::set<std::string>{"binary-macos-newer-than-tag", "binary-abi3-non-limited-api"}));
  std::set<std::string> described;
  for (const auto& rule : j["runs"][0]["tool"]["driver"]["rules"]) described.insert(rule["id"].get<std::string>());
  for (const auto& id : ids) EXPECT_TRUE(described.count(id)) << id;
}

TEST(AuditPackaging, MismatchedTagsAreBadInputAndOthersStillAudited) {
  REQUIRE_PYTHON_EXT();
  const std::string mismatch = fixture("bad_wheels/tag_mismatch-1.0-cp311-cp311-linux_x86_64.whl");
  ASSERT_TRUE(fs::exists(mismatch));
  auto r = run_torchabi({"audit", mismatch, packaging_wheel("abi3_lying")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("tag_mismatch-1.0-cp311-cp311-linux_x86_64.whl: the file name's tags (cp311-cp311-linux_x86_64) "
                       "differ from tag_mismatch-1.0.dist-info/WHEEL (cp311-cp311-win_amd64)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("binary-abi3-non-limited-api"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("tag_mismatch/_C"), std::string::npos) << "nothing half-reported\n" << r.out;
}

TEST(AuditPackaging, ExplainEveryNewRule) {
  for (const char* id : {"binary-abi3-non-limited-api", "binary-abi3-newer-than-tag", "binary-glibc-newer-than-tag",
                         "binary-macos-newer-than-tag", "binary-arch-not-in-tag"}) {
    auto r = run_torchabi({"explain", id});
    EXPECT_EQ(r.exit_code, 0) << id << r.err;
    EXPECT_NE(r.out.find(id), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace torchabi::e2e::audit
