// `torchabi audit` on single libraries: the stable fixture, its 2.12 variant
// and the legacy extension built against Debian's libtorch 1.13.
#include <gtest/gtest.h>

#include "audit_fixtures.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;

TEST(AuditLibrary, StableExtensionIsCleanWithItsFloor) {
  auto r = run_torchabi({"audit", "--format", "json", stable_lib()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_TRUE(j["findings"].empty());
  ASSERT_EQ(j["subjects"].size(), 1u);
  auto s = j["subjects"][0];
  EXPECT_EQ(s["kind"], "library");
  EXPECT_EQ(s["verdict"], "STABLE");
  EXPECT_EQ(s["floor"], "2.10");
  EXPECT_EQ(s["floor_is_baseline"], false);
  EXPECT_EQ(s["floor_set_by"], nlohmann::json::array({"torch_library_impl"}));
  EXPECT_EQ(s["loads_on"], "PyTorch >= 2.10");
}

TEST(AuditLibrary, TextReportNamesVerdictAndFloor) {
  auto r = run_torchabi({"audit", stable_212_lib()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("libstable_ext_2_12.so: STABLE — PyTorch >= 2.12"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("floor set by: aoti_torch_dtype_float8_e8m0fnu"), std::string::npos) << r.out;
}

TEST(AuditLibrary, UnknownShimImportIsAWarning) {
  auto r = run_torchabi({"audit", "--format", "json", unknown_shim_lib()});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a warning: below the default --fail-on error
  auto j = r.json();
  auto fired = findings_of(j, "binary-unknown-shim");
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_EQ(fired[0]["severity"], "warning");
  EXPECT_EQ(fired[0]["location"]["symbol"], "aoti_torch_torchabi_fixture_future_dtype");
  EXPECT_EQ(j["subjects"][0]["verdict"], "STABLE");
  auto strict = run_torchabi({"audit", "--fail-on", "warning", unknown_shim_lib()});
  EXPECT_EQ(strict.exit_code, 1) << strict.err;
  // The stable fixture imports only catalogued functions.
  EXPECT_TRUE(findings_of(run_torchabi({"audit", "--format", "json", stable_lib()}).json(), "binary-unknown-shim").empty());
}

TEST(AuditLibrary, LegacyExtensionIsUnstable) {
  if (!have_legacy()) GTEST_SKIP() << "libtorch-dev not installed: " << legacy_lib() << " not built";
  auto r = run_torchabi({"audit", "--format", "json", legacy_lib()});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  auto s = subject(j, legacy_lib());
  EXPECT_EQ(s["verdict"], "UNSTABLE");
  EXPECT_NE(s["loads_on"].get<std::string>().find("libtorch_cpu.so.1.13"), std::string::npos);
  auto unstable = findings_of(j, "binary-unstable-import");
  ASSERT_FALSE(unstable.empty());
  bool saw_check_fail = false, saw_at = false;
  for (const auto& f : unstable) {
    EXPECT_EQ(f["severity"], "error");
    EXPECT_EQ(f["location"]["file"], legacy_lib());
    const std::string sym = f["location"]["symbol"];
    saw_check_fail |= sym.starts_with("c10::detail::torchCheckFail(");
    saw_at |= sym.starts_with("at::");
  }
  EXPECT_TRUE(saw_check_fail);
  EXPECT_TRUE(saw_at);
  auto leaked = findings_of(j, "binary-leaked-inline-cxx");
  ASSERT_EQ(leaked.size(), 1u);
  EXPECT_EQ(leaked[0]["severity"], "warning");
}

TEST(AuditLibrary, SarifIsValidAndCarriesTheSymbols) {
  if (!have_legacy()) GTEST_SKIP() << "libtorch-dev not installed";
  auto r = run_torchabi({"audit", "--format", "sarif", legacy_lib()});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run = j["runs"][0];
  std::set<std::string> rule_ids;
  for (const auto& rule : run["tool"]["driver"]["rules"]) rule_ids.insert(rule["id"]);
  EXPECT_TRUE(rule_ids.count("binary-unstable-import"));
  ASSERT_FALSE(run["results"].empty());
  for (const auto& res : run["results"]) {
    EXPECT_TRUE(rule_ids.count(res["ruleId"].get<std::string>()));
    EXPECT_EQ(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], legacy_lib());
    if (res["ruleId"] == "binary-unstable-import") {
      EXPECT_FALSE(res["locations"][0]["logicalLocations"][0]["name"].get<std::string>().empty());
    }
  }
}

TEST(AuditLibrary, OutputFileIsWrittenAndStdoutStaysEmpty) {
  const std::string dir = make_temp_dir();
  const std::string out = dir + "/report.json";
  auto r = run_torchabi({"audit", "--format", "json", "-o", out, stable_lib()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  auto j = nlohmann::json::parse(read_all(out));
  EXPECT_EQ(j["command"], "audit");
}

TEST(AuditLibrary, SeveralInputsOneReport) {
  auto r = run_torchabi({"audit", "--format", "json", stable_lib(), stable_212_lib()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["subjects"].size(), 2u);
}

TEST(AuditLibrary, LibtorchItselfIsAudited) {
  const std::string libtorch = "/usr/lib/x86_64-linux-gnu/libtorch_cpu.so";
  if (!std::filesystem::exists(libtorch)) GTEST_SKIP() << "libtorch-dev not installed";
  auto r = run_torchabi({"audit", "--format", "json", "--fail-on", "error", libtorch});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // it imports c10:: from libc10
  auto s = r.json()["subjects"][0];
  EXPECT_EQ(s["verdict"], "UNSTABLE");
  EXPECT_EQ(s["facts"]["soname"], "libtorch_cpu.so.1.13");
}
