// Every lint rule end to end: its fires/clean fixture pair through the CLI,
// the exact findings (file, line, column, symbol) in the JSON report, and
// the exit code.
#include <gtest/gtest.h>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

using V = std::vector<Found>;

TEST(LintRules, SourceUnstableInclude) {
  const std::string dir = fixture("source-unstable-include");
  auto r = lint_fixture("source-unstable-include/fires.cpp");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(findings_of(r.json(), "source-unstable-include"),
            (V{{dir + "/fires.cpp", 4, 1, "c10/util/Exception.h"},
               {dir + "/fires.cpp", 6, 1, "c10/util/Exception.h"},
               {dir + "/helpers.h", 2, 1, "c10/core/ScalarType.h"}}));
  auto clean = lint_fixture("source-unstable-include/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_TRUE(clean.json()["findings"].empty());
}

TEST(LintRules, SourceUnstableApi) {
  const std::string f = fixture("source-unstable-api/fires.cpp");
  auto r = lint_fixture("source-unstable-api/fires.cpp");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-unstable-api"),
            (V{{f, 4, 17, "at"},
               {f, 5, 9, "at::Tensor"},
               {f, 7, 1, "at::Tensor"},
               {f, 7, 10, "at::Tensor"},
               {f, 8, 8, "at::Tensor"},
               {f, 8, 14, "at::Tensor::transpose"},
               {f, 9, 3, "c10::ScalarType"},
               {f, 9, 22, "c10::kFloat"}}));
  const auto* transpose = finding_at(j, "source-unstable-api", 8, 14);
  ASSERT_NE(transpose, nullptr);
  EXPECT_EQ((*transpose)["fix"]["replacement"], "torch::stable::transpose(x, 0, 1)");
  EXPECT_EQ((*transpose)["fix"]["safety"], "unsafe");
  auto clean = lint_fixture("source-unstable-api/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_TRUE(clean.json()["findings"].empty());
}

TEST(LintRules, SourceUnstableMacro) {
  const std::string f = fixture("source-unstable-macro/fires.cpp");
  auto r = lint_fixture("source-unstable-macro/fires.cpp");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(findings_of(r.json(), "source-unstable-macro"),
            (V{{f, 7, 3, "TORCH_CHECK"}, {f, 8, 3, "TORCH_CHECK"}, {f, 9, 16, "AT_ERROR"}}));
  auto clean = lint_fixture("source-unstable-macro/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty());
}

TEST(LintRules, VersionTargetImplausible) {
  const std::string f = fixture("version-target-implausible/fires.cpp");
  auto r = lint_fixture("version-target-implausible/fires.cpp");
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "version-target-implausible"), (V{{f, 2, 30, "TORCH_TARGET_VERSION"}}));
  EXPECT_EQ(j["findings"][0]["fix"]["replacement"], "0x020a000000000000");
  auto clean = lint_fixture("version-target-implausible/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty());
}

TEST(LintRules, VersionApiAfterTarget) {
  auto r = lint_fixture("version-api-after-target/fires.cpp");
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "version-api-after-target"),
            (V{{fixture("version-api-after-target/fires.cpp"), 7, 25, "torch_dtype_float8_e8m0fnu"}}));
  auto late = lint_fixture("version-api-after-target/late_define.cpp");
  EXPECT_EQ(findings_of(late.json(), "version-api-after-target"),
            (V{{fixture("version-api-after-target/late_define.cpp"), 7, 69, "torch::stable::reshape"}}));
  auto clean = lint_fixture("version-api-after-target/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  auto cj = clean.json();
  EXPECT_TRUE(cj["findings"].empty());
  // The TU's summary ends with the lowest target its code can use.
  ASSERT_EQ(cj["subjects"].size(), 1u);
  EXPECT_EQ(cj["subjects"][0]["floor"], "2.11");
  EXPECT_EQ(cj["subjects"][0]["floor_set_by"], nlohmann::json::array({"torch_dtype_float8_e8m0fnu"}));
  EXPECT_EQ(cj["subjects"][0]["verdict"], "STABLE");
}

TEST(LintRules, SourceBoolMacroFlag) {
  const std::string f = fixture("source-bool-macro-flag/fires.cpp");
  auto r = lint_fixture("source-bool-macro-flag/fires.cpp", false);
  EXPECT_EQ(r.exit_code, 0);  // warnings do not fail by default
  EXPECT_EQ(findings_of(r.json(), "source-bool-macro-flag"), (V{{f, 2, 5, "WITH_CUDA"}, {f, 8, 8, "USE_OPENMP"}}));
  auto fail = lint_json({f, "--fail-on", "warning", "--", "-DWITH_CUDA=True", "-DUSE_OPENMP=False"});
  EXPECT_EQ(fail.exit_code, 1);
  auto clean = lint_fixture("source-bool-macro-flag/clean.cpp", false);
  EXPECT_TRUE(clean.json()["findings"].empty());
}

TEST(LintRules, SourceTargetVersionUndefined) {
  auto r = lint_fixture("source-target-version-undefined/fires.cpp");
  EXPECT_EQ(findings_of(r.json(), "source-target-version-undefined"),
            (V{{fixture("source-target-version-undefined/fires.cpp"), 6, 1, "TORCH_TARGET_VERSION"}}));
  auto clean = lint_fixture("source-target-version-undefined/clean.cpp");
  EXPECT_TRUE(clean.json()["findings"].empty());
}

TEST(LintRules, SourceShimDeclarationMismatch) {
  const std::string f = fixture("source-shim-declaration-mismatch/fires.cpp");
  auto r = lint_fixture("source-shim-declaration-mismatch/fires.cpp", false);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(findings_of(r.json(), "source-shim-declaration-mismatch"),
            (V{{f, 5, 9, "aoti_torch_get_dim"}, {f, 6, 9, "aoti_torch_get_numel"}}));
  auto clean = lint_fixture("source-shim-declaration-mismatch/clean.cpp", false);
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty());
  // Without the shim's typedefs in the TU, the catalog's own type rows say
  // what AOTITorchError and AtenTensorHandle are (int32_t, AtenTensorOpaque*).
  auto underlying = lint_fixture("source-shim-declaration-mismatch/clean_no_typedefs.cpp", false);
  EXPECT_EQ(underlying.exit_code, 0) << underlying.out;
  EXPECT_TRUE(findings_of(underlying.json(), "source-shim-declaration-mismatch").empty()) << underlying.out;
}

TEST(LintRules, SourceSuppressionWithoutReason) {
  const std::string f = fixture("source-suppression-without-reason/fires.cpp");
  auto r = lint_fixture("source-suppression-without-reason/fires.cpp", false);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-suppression-without-reason"),
            (V{{f, 4, 1, "source-shim-declaration-mismatch"}}));
  EXPECT_TRUE(findings_of(j, "source-shim-declaration-mismatch").empty());
  EXPECT_EQ(j["summary"]["suppressed"], 1);
  auto clean = lint_fixture("source-suppression-without-reason/clean.cpp", false);
  auto cj = clean.json();
  EXPECT_TRUE(cj["findings"].empty());
  EXPECT_EQ(cj["summary"]["suppressed"], 1);
}

TEST(LintRules, SourceParseIncomplete) {
  auto r = lint_fixture("source-parse-incomplete/fires.cpp", false);
  EXPECT_EQ(r.exit_code, 0);  // a note
  EXPECT_EQ(findings_of(r.json(), "source-parse-incomplete"),
            (V{{fixture("source-parse-incomplete/fires.cpp"), 2, 10, ""}}));
  auto clean = lint_fixture("source-parse-incomplete/clean.cpp");
  EXPECT_TRUE(clean.json()["findings"].empty());
}

TEST(LintRules, SourceTuNotAnalysed) {
  const std::string build = make_temp_dir();
  const std::string present = fixture("source-tu-not-analysed/fires.cpp");
  std::ofstream(build + "/compile_commands.json")
      << "[{\"directory\": \"" << build << "\", \"command\": \"c++ -c " << present << "\", \"file\": \"" << present << "\"},"
      << " {\"directory\": \"" << build << "\", \"command\": \"c++ -c missing.cpp\", \"file\": \"missing.cpp\"}]";
  auto r = lint_json({"-p", build});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the present file is clean; the note does not fail
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-tu-not-analysed"), (V{{build + "/missing.cpp", 0, 0, ""}}));
  EXPECT_EQ(j["subjects"].size(), 1u);
  EXPECT_NE(r.err.find("missing.cpp: not analysed: file not found"), std::string::npos) << r.err;

  const std::string clean_build = make_temp_dir();
  const std::string clean = fixture("source-tu-not-analysed/clean.cpp");
  std::ofstream(clean_build + "/compile_commands.json")
      << "[{\"directory\": \"" << clean_build << "\", \"command\": \"c++ -c " << clean << "\", \"file\": \"" << clean << "\"}]";
  auto c = lint_json({"-p", clean_build});
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_TRUE(c.json()["findings"].empty());
}

TEST(LintRules, SourceInactiveBranch) {
  const std::string f = fixture("source-inactive-branch/fires.cpp");
  auto r = lint_fixture("source-inactive-branch/fires.cpp");
  EXPECT_EQ(r.exit_code, 0) << r.err;  // warnings
  EXPECT_EQ(findings_of(r.json(), "source-inactive-branch"),
            (V{{f, 6, 10, "c10/hip/HIPStream.h"},
               {f, 11, 3, "TORCH_CHECK"},
               {f, 16, 3, "at::Tensor"},
               {f, 16, 23, "at::empty"},
               {f, 17, 3, "at::Tensor::zero_"}}));
  auto clean = lint_fixture("source-inactive-branch/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty());

  // The other configuration: its AST finding replaces the token-level one.
  auto both = lint_json({f, "--also-define", "FLASHATTENTION_DISABLE_FP8", "--", "-std=c++17", "-I", stand_ins()});
  auto j = both.json();
  EXPECT_EQ(findings_of(j, "source-inactive-branch").size(), 4u) << both.out;
  EXPECT_EQ(findings_of(j, "source-unstable-macro"), (V{{f, 11, 3, "TORCH_CHECK"}}));
  EXPECT_EQ(both.exit_code, 1);

  // Severity is configurable like any rule's.
  const std::string dir = make_temp_dir();
  write_file(dir, ".torchabi.yaml", "severity:\n  source-inactive-branch: error\n");
  auto strict = lint_json({"--config", dir + "/.torchabi.yaml", f, "--", "-std=c++17", "-I", stand_ins()});
  EXPECT_EQ(strict.exit_code, 1) << strict.err;
}

TEST(LintRules, EveryLintRuleHasAFixturePairAndADocEntry) {
  for (const char* rule : {"source-unstable-include", "source-unstable-api", "source-unstable-macro",
                           "version-target-implausible", "version-api-after-target", "source-bool-macro-flag",
                           "source-target-version-undefined", "source-shim-declaration-mismatch",
                           "source-suppression-without-reason", "source-parse-incomplete", "source-tu-not-analysed",
                           "source-inactive-branch", "source-undefined-stable-function"}) {
    EXPECT_TRUE(std::filesystem::exists(fixture(std::string(rule) + "/fires.cpp"))) << rule;
    EXPECT_TRUE(std::filesystem::exists(fixture(std::string(rule) + "/clean.cpp"))) << rule;
    auto r = run_torchabi({"explain", rule});
    EXPECT_EQ(r.exit_code, 0) << rule << ": " << r.err;
  }
}

}  // namespace
}  // namespace torchabi::e2e::lint
