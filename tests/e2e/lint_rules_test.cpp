// Every lint rule end to end: its fires/clean fixture pair through the CLI,
// the exact findings (file, line, column, symbol) in the JSON report, and
// the exit code.
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "real_torch.h"

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
            (V{{f, 4, 27, "TORCH_CHECK"}, {f, 7, 3, "TORCH_CHECK"}, {f, 9, 16, "AT_ERROR"}}));  // 4:27: in CHECK_POSITIVE's #define
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
  // With the stable headers found (one of them missing is a note); none found
  // at all is source-torch-headers-not-found, an error.
  auto r = lint_fixture("source-parse-incomplete/fires.cpp");
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

// A file libclang crashes on (clang's own crash pragma stands for a compiler
// bug) is an error naming it, so the run is not green; the file next to it is
// still analysed. Without the construct the same pair is clean.
TEST(LintRules, SourceTuParseFailed) {
  const std::string other = fixture("source-tu-not-analysed/clean.cpp");
  auto r = lint_json({fixture("source-tu-parse-failed/fires.cpp"), other, "--"});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-tu-parse-failed"), (V{{fixture("source-tu-parse-failed/fires.cpp"), 0, 0, ""}}))
      << r.out;
  EXPECT_TRUE(findings_of(j, "source-tu-not-analysed").empty()) << r.out;
  ASSERT_EQ(j["subjects"].size(), 1u) << r.out;  // the other file was analysed
  EXPECT_NE(r.err.find("fires.cpp: not analysed: libclang crashed"), std::string::npos) << r.err;

  auto c = lint_json({fixture("source-tu-parse-failed/clean.cpp"), other, "--"});
  EXPECT_EQ(c.exit_code, 0) << c.err << c.out;
  EXPECT_TRUE(c.json()["findings"].empty()) << c.out;
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

// The legacy half of a file built both ways (`#ifdef TORCH_TARGET_VERSION
// ... #else <legacy> #endif`) is that build's code by design: notes.
TEST(LintRules, InactiveBranchOfABuildWithoutTheStableSwitchIsANote) {
  const std::string f = fixture("source-inactive-branch/dual_build.cpp");
  auto r = lint_fixture("source-inactive-branch/dual_build.cpp");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-inactive-branch"), (V{{f, 11, 10, "torch/all.h"}, {f, 12, 23, "TORCH_CHECK"}})) << r.out;
  for (const auto& x : j["findings"]) {
    EXPECT_EQ(x["severity"], "note") << x.dump(1);
    bool says = false;
    for (const auto& n : x["notes"]) says |= n.get<std::string>().find("legacy by design") != std::string::npos;
    EXPECT_TRUE(says) << x.dump(1);
  }
}

TEST(LintRules, BuildTargetVersionMissing) {
  const std::string f = fixture("build-target-version-missing/fires.cpp");
  auto r = lint_fixture("build-target-version-missing/fires.cpp");
  EXPECT_EQ(r.exit_code, 0) << r.out;  // a warning
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "build-target-version-missing"), (V{{f, 4, 1, "TORCH_TARGET_VERSION"}}));
  const auto* w = finding_at(j, "build-target-version-missing", 4, 1);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ((*w)["severity"], "warning");
  // The build's floor comes from the headers' inline code, the code's from its own uses.
  EXPECT_NE((*w)["message"].get<std::string>().find("will need PyTorch >= 2.11 (it imports torch_dtype_float8_e8m0fnu)"),
            std::string::npos) << (*w)["message"];
  EXPECT_NE((*w)["message"].get<std::string>().find("its code needs only 2.9"), std::string::npos);
  EXPECT_NE((*w)["help"].get<std::string>().find("-DTORCH_TARGET_VERSION=0x0209000000000000"), std::string::npos);
  EXPECT_NE((*w)["notes"][0].get<std::string>().find("through torch::stable::detail::to at"), std::string::npos)
      << (*w)["notes"];
  ASSERT_EQ(j["subjects"].size(), 1u);
  EXPECT_EQ(j["subjects"][0]["facts"]["build floor"], "PyTorch 2.11 (torch_dtype_float8_e8m0fnu)");
  EXPECT_EQ(j["subjects"][0]["facts"]["build imports"],
            "3 stable C functions (predicted): aoti_torch_dtype_float32, aoti_torch_get_dim, torch_dtype_float8_e8m0fnu");
  auto clean = lint_fixture("build-target-version-missing/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  auto cj = clean.json();
  EXPECT_TRUE(cj["findings"].empty()) << clean.out;
  EXPECT_EQ(cj["subjects"][0]["facts"]["build floor"], "PyTorch 2.9 or earlier");
}

// The project states an older torch than the build will need: an error.
TEST(LintRules, BuildTargetVersionMissingIsAnErrorBelowTheProjectsStatedTorch) {
  const std::string project = make_temp_dir();
  const std::string cpp = write_file(project, "ops.cpp", read_all(fixture("build-target-version-missing/fires.cpp")));
  std::ofstream(project + "/pyproject.toml") << "[project]\nname = \"ops\"\ndependencies = [\"numpy\", \"torch>=2.10\"]\n";
  auto r = lint_json({cpp, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_STABLE_ONLY"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto j = r.json();
  const auto* e = finding_at(j, "build-target-version-missing", 4, 1);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_EQ((*e)["severity"], "error");
  EXPECT_NE((*e)["message"].get<std::string>().find("the project states it supports PyTorch 2.10"), std::string::npos);
  EXPECT_NE((*e)["help"].get<std::string>().find("-DTORCH_TARGET_VERSION=0x020a000000000000"), std::string::npos)
      << (*e)["help"];
  // A torch requirement at or above the build's floor keeps it a warning.
  std::ofstream(project + "/pyproject.toml") << "[project]\nname = \"ops\"\ndependencies = [\"torch>=2.12\"]\n";
  auto ok = lint_json({cpp, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_STABLE_ONLY"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
}

TEST(LintRules, BuildApiHiddenByConfiguration) {
  const std::string f = fixture("build-api-hidden-by-configuration/fires.cpp");
  auto r = lint_fixture("build-api-hidden-by-configuration/fires.cpp");
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "build-api-hidden-by-configuration"), (V{{f, 7, 3, "aoti_torch_get_current_cuda_stream"}}));
  const auto* e = finding_at(j, "build-api-hidden-by-configuration", 7, 3);
  ASSERT_NE(e, nullptr);
  EXPECT_NE((*e)["message"].get<std::string>().find("only in `#ifdef USE_CUDA`"), std::string::npos);
  EXPECT_NE((*e)["help"].get<std::string>().find("add -DUSE_CUDA"), std::string::npos);
  // The error is explained: source-parse-incomplete does not count it again.
  EXPECT_TRUE(findings_of(j, "source-parse-incomplete").empty()) << r.out;
  auto clean = lint_fixture("build-api-hidden-by-configuration/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}

// Issue 37: a source for another toolchain (HIP, absent here) is not blamed
// for this configuration's macros; the finding stays, as a note that says why.
TEST(LintRules, BuildApiHiddenByConfigurationInAHipSourceIsANote) {
  auto r = lint_fixture("build-api-hidden-by-configuration/hip_only.cpp");
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  const auto* e = finding_at(j, "build-api-hidden-by-configuration", 10, 3);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_EQ((*e)["severity"], "note");
  bool names_hip = false;
  for (const auto& n : (*e)["notes"]) names_hip |= n.get<std::string>().find("includes <hip/hip_runtime.h>") != std::string::npos;
  EXPECT_TRUE(names_hip) << e->dump(1);
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// Issue 37, from a real kernel's binding (bench/accuracy/real_stable): Half.h
// names CUDA's __half only in conversions compiled for nvcc (`operator
// __half()`), which declare no __half. A g++ TU whose project header uses
// __half, with cuda_fp16.h not on the include path, is not blamed on PyTorch.
// A helper Half.h does declare, only for aarch64, is the configuration's
// error, and not unstable API as well: the header declaring it is stable.
TEST(LintRules, BuildApiHiddenByConfigurationNeedsADeclarationOfTheName) {
  auto clean = lint_fixture("build-api-hidden-by-configuration/half_cuda_type.cpp");
  ASSERT_NE(clean.exit_code, 2) << clean.err;
  EXPECT_TRUE(findings_of(clean.json(), "build-api-hidden-by-configuration").empty()) << clean.out;
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  const std::string f = fixture("build-api-hidden-by-configuration/half_aarch64_only.cpp");
  auto r = lint_fixture("build-api-hidden-by-configuration/half_aarch64_only.cpp");
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "build-api-hidden-by-configuration"), (V{{f, 9, 42, "c10::detail::fp16_from_bits"}}))
      << r.out;
  EXPECT_TRUE(findings_of(j, "source-unstable-api").empty()) << r.out;
}

TEST(LintRules, BuildApiNotInHeaders) {
  const std::string f = fixture("build-api-not-in-headers/fires.cpp");
  auto r = lint_fixture("build-api-not-in-headers/fires.cpp");
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "build-api-not-in-headers"), (V{{f, 5, 25, "torch::stable::is_tensor_pyobject"}}));
  const auto* e = finding_at(j, "build-api-not-in-headers", 5, 25);
  ASSERT_NE(e, nullptr);
  // The stand-in headers say they are 2.12.
  EXPECT_NE((*e)["message"].get<std::string>().find("the PyTorch 2.12 headers in use"), std::string::npos);
  auto clean = lint_fixture("build-api-not-in-headers/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}

TEST(LintRules, BuildApiHeaderNotIncluded) {
  const std::string f = fixture("build-api-header-not-included/fires.cpp");
  auto r = lint_fixture("build-api-header-not-included/fires.cpp");
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "build-api-header-not-included"), (V{{f, 5, 3, "STD_TORCH_CHECK"}}));
  EXPECT_TRUE(findings_of(j, "build-api-not-in-headers").empty()) << r.out;
  const auto* e = finding_at(j, "build-api-header-not-included", 5, 3);
  ASSERT_NE(e, nullptr);
  EXPECT_NE((*e)["help"].get<std::string>().find("#include <torch/headeronly/util/Exception.h>"), std::string::npos);
  EXPECT_EQ((*e)["severity"], "error");
  auto clean = lint_fixture("build-api-header-not-included/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}

TEST(BuildHeaderNotIncluded, AProjectHeaderThatWasNotFoundMakesItANote) {
  const std::string dir = make_temp_dir();
  const std::string cpp = write_file(dir, "ops.cpp",
                                     "#include \"checks.h\"  // includes the stable Exception.h; not on the path\n"
                                     "#include <torch/csrc/stable/tensor.h>\n\n"
                                     "int64_t checked_rank(const torch::stable::Tensor& t) {\n"
                                     "  STD_TORCH_CHECK(t.dim() > 0, \"expected dimensions\");\n"
                                     "  return t.dim();\n}\n");
  auto r = lint_json({cpp, "--", "-std=c++17", "-I" + stand_ins(), "-DTORCH_TARGET_VERSION=0x0209000000000000"});
  auto j = r.json();
  const auto* e = finding_at(j, "build-api-header-not-included", 5, 3);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_EQ((*e)["severity"], "note");
  EXPECT_NE((*e)["message"].get<std::string>().find("checks.h"), std::string::npos) << (*e)["message"];
}

// A word in a comment of a skipped branch declares nothing, and a name
// qualified with another library's namespace is never PyTorch's: cutlass from
// a submodule that was not checked out is not "hidden by" a PyTorch header.
TEST(BuildHiddenByConfiguration, OnlyDeclarationsInThePyTorchNamespacesCount) {
  const std::string dir = make_temp_dir();
  write_file(dir, "include/torch/headeronly/macros/Arch.h",
             "#pragma once\n"
             "namespace torch::headeronly { int lanes(); }\n"
             "#if defined(USE_ROCM)\n"
             "// compiling for --offload-arch=gfx90a needs the dynamic warp size\n"
             "const char* s = \"arch = 1;\";\n"
             "namespace other { int arch; }\n"
             "namespace torch::headeronly { int warp_size(); }\n"
             "#endif\n");
  const std::string cpp = write_file(dir, "fmha.cpp",
                                     "#include <torch/headeronly/macros/Arch.h>\n"
                                     "namespace cutlass { namespace gemm {} }\n"
                                     "using Barrier = cutlass::arch::ClusterTransactionBarrier;\n"
                                     "int w() { return torch::headeronly::warp_size(); }\n");
  auto r = lint_json({cpp, "--", "-std=c++17", "-I" + dir + "/include"});
  const auto j = r.json();
  // cutlass::arch: nothing; torch::headeronly::warp_size: hidden by USE_ROCM.
  EXPECT_EQ(findings_of(j, "build-api-hidden-by-configuration"), (V{{cpp, 4, 37, "torch::headeronly::warp_size"}}))
      << r.out;
}

TEST(LintRules, BuildHeaderError) {
  const std::string f = fixture("build-header-error/fires.cpp");
  auto r = lint_fixture("build-header-error/fires.cpp");
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "build-header-error"), (V{{f, 2, 1, "ATen/core/StandIn.h"}}));
  const auto* e = finding_at(j, "build-header-error", 2, 1);
  ASSERT_NE(e, nullptr);
  EXPECT_NE((*e)["message"].get<std::string>().find("stops this build with #error"), std::string::npos);
  EXPECT_TRUE(findings_of(j, "source-parse-incomplete").empty()) << r.out;
  auto clean = lint_fixture("build-header-error/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}


// A message, help or note of a finding contains `text`.
::testing::AssertionResult says(const nlohmann::json* f, const std::string& field, const std::string& text) {
  if (!f) return ::testing::AssertionFailure() << "no such finding";
  const auto& v = (*f)[field];
  const std::string all = v.is_array() ? v.dump() : v.get<std::string>();
  if (all.find(text) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << field << " lacks '" << text << "': " << all;
}

TEST(LintRules, VersionMacroMissingAtTarget) {
  const std::string f = fixture("version-macro-missing-at-target/fires.cpp");
  auto r = lint_fixture("version-macro-missing-at-target/fires.cpp");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "version-macro-missing-at-target"),
            (V{{f, 6, 5, "TORCH_FEATURE_VERSION"}, {f, 13, 28, "TORCH_VERSION_2_11_0"}}));
  // Read as 0 at 2.9, the 2.10 test holds there.
  const auto* newer = finding_at(j, "version-macro-missing-at-target", 6, 5);
  EXPECT_TRUE(says(newer, "message", "reads TORCH_FEATURE_VERSION and TORCH_VERSION_2_10_0, which PyTorch 2.9's headers "
                                     "do not define (they read as 0): built against them the condition is true, "
                                     "although at TORCH_TARGET_VERSION 2.9 it means false"));
  EXPECT_TRUE(says(newer, "notes", "TORCH_FEATURE_VERSION is defined from PyTorch 2.10 on, in <torch/csrc/stable/version.h>"));
  EXPECT_TRUE(says(newer, "help", "#if defined(TORCH_FEATURE_VERSION) && defined(TORCH_VERSION_2_10_0) && "
                                  "(TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0)"));
  EXPECT_TRUE(says(newer, "help", "__has_include(<torch/csrc/stable/version.h>)"));
  ASSERT_NE(newer, nullptr);
  EXPECT_EQ((*newer)["fix"]["replacement"],
            "defined(TORCH_FEATURE_VERSION) && defined(TORCH_VERSION_2_10_0) && (TORCH_FEATURE_VERSION >= "
            "TORCH_VERSION_2_10_0)");
  EXPECT_EQ((*newer)["fix"]["safety"], "unsafe");
  // Read as 0 at 2.9, the "below 2.11" test fails there: the fix keeps it true.
  const auto* older = finding_at(j, "version-macro-missing-at-target", 13, 28);
  EXPECT_TRUE(says(older, "message", "the condition is false, although at TORCH_TARGET_VERSION 2.9 it means true"));
  ASSERT_NE(older, nullptr);
  EXPECT_EQ((*older)["fix"]["replacement"], "!defined(TORCH_VERSION_2_11_0) || (TORCH_TARGET_VERSION < TORCH_VERSION_2_11_0)");

  // At 2.10 only the 2.11 macro is missing; at 2.11 nothing is.
  auto at_2_10 = lint_json({f, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x020a000000000000"});
  EXPECT_EQ(findings_of(at_2_10.json(), "version-macro-missing-at-target"), (V{{f, 13, 28, "TORCH_VERSION_2_11_0"}}));
  auto at_2_11 = lint_json({f, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x020b000000000000"});
  EXPECT_TRUE(findings_of(at_2_11.json(), "version-macro-missing-at-target").empty()) << at_2_11.out;
  // Without a target nothing is promised.
  auto untargeted = lint_json({f, "--", "-std=c++17", "-I", stand_ins()});
  EXPECT_TRUE(findings_of(untargeted.json(), "version-macro-missing-at-target").empty()) << untargeted.out;

  auto clean = lint_fixture("version-macro-missing-at-target/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}

TEST(LintRules, SourceStreamIdAsHandle) {
  const std::string f = fixture("source-stream-id-as-handle/fires.cpp");
  auto r = lint_fixture("source-stream-id-as-handle/fires.cpp");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-stream-id-as-handle"),
            (V{{f, 10, 24, "torch::stable::accelerator::Stream::id"}, {f, 11, 24, "torch::stable::accelerator::Stream::id"}}));
  const auto* cast = finding_at(j, "source-stream-id-as-handle", 10, 24);
  EXPECT_TRUE(says(cast, "message", "'s.id()' cast to cudaStream_t: torch::stable::accelerator::Stream::id() is the "
                                    "stream's StreamId"));
  EXPECT_TRUE(says(cast, "help", "s.nativeHandle()"));
  const auto* c_style = finding_at(j, "source-stream-id-as-handle", 11, 24);
  EXPECT_TRUE(says(c_style, "help", "torch::stable::accelerator::getCurrentStream(device).nativeHandle()"));
  // Below 2.13 there is no nativeHandle(): the C shim's CUDA stream instead.
  auto old = lint_json({f, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x0209000000000000"});
  auto oj = old.json();
  EXPECT_TRUE(says(finding_at(oj, "source-stream-id-as-handle", 10, 24), "help",
                   "aoti_torch_get_current_cuda_stream(device_index, (void**)&stream)"));

  auto clean = lint_fixture("source-stream-id-as-handle/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}

TEST(LintRules, SourceDispatcherScalarArg) {
  const std::string f = fixture("source-dispatcher-scalar-arg/fires.cpp");
  auto r = lint_fixture("source-dispatcher-scalar-arg/fires.cpp");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-dispatcher-scalar-arg"), (V{{f, 6, 32, "aten::full"}, {f, 10, 37, "aten::clamp"}}));
  const auto* full = finding_at(j, "source-dispatcher-scalar-arg", 6, 32);
  EXPECT_TRUE(says(full, "message", "torch_call_dispatcher(\"aten::full\", \"\", ...): aten::full takes fill_value (Scalar), "
                                    "and StableIValue has no Scalar representation"));
  EXPECT_TRUE(says(full, "notes", "full(SymInt[] size, Scalar fill_value"));
  const auto* clamp = finding_at(j, "source-dispatcher-scalar-arg", 10, 37);
  EXPECT_TRUE(says(clamp, "message", "aten::clamp takes min (Scalar?) and max (Scalar?)"));

  auto clean = lint_fixture("source-dispatcher-scalar-arg/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}

// The three rules on sources that include Debian's real 2.14.1 headers.
RunResult lint_with_real_headers(const std::string& name, const std::string& code, std::vector<std::string> flags = {}) {
  const std::string src = write_file(make_temp_dir(), name, code);
  std::vector<std::string> args = {src, "--", "-std=c++17", "-I" + test::real_torch_include()};
  args.insert(args.end(), flags.begin(), flags.end());
  return lint_json(args);
}

TEST(LintRulesRealHeaders, VersionMacroMissingAtTarget) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string code =
      "#include <torch/csrc/stable/library.h>\n"
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0\n"
      "int twelve() { return 12; }\n"
      "#endif\n"
      "#if defined(TORCH_FEATURE_VERSION) && TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"
      "int ten() { return 10; }\n"
      "#endif\n";
  auto r = lint_with_real_headers("macros.cpp", code, {"-DTORCH_TARGET_VERSION=0x0209000000000000"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  const auto found = findings_of(j, "version-macro-missing-at-target");
  ASSERT_EQ(found.size(), 1u) << r.out;
  EXPECT_EQ(found[0].line, 2);
  EXPECT_EQ(found[0].symbol, "TORCH_FEATURE_VERSION");
  EXPECT_TRUE(says(finding_at(j, "version-macro-missing-at-target", 2, 5), "message",
                   "reads TORCH_FEATURE_VERSION and TORCH_VERSION_2_12_0, which PyTorch 2.9's headers do not define"));
  // At the headers' own release every macro exists.
  auto at_2_12 = lint_with_real_headers("macros.cpp", code, {"-DTORCH_TARGET_VERSION=0x020c000000000000"});
  EXPECT_TRUE(findings_of(at_2_12.json(), "version-macro-missing-at-target").empty()) << at_2_12.out;
}

TEST(LintRulesRealHeaders, SourceStreamIdAsHandle) {
  TORCHABI_REQUIRE_REAL_TORCH();
  auto r = lint_with_real_headers("stream.cpp",
                                  "#include <torch/csrc/stable/accelerator.h>\n"
                                  "typedef struct CUstream_st* cudaStream_t;\n"
                                  "cudaStream_t current(int32_t device) {\n"
                                  "  return reinterpret_cast<cudaStream_t>(\n"
                                  "      torch::stable::accelerator::getCurrentStream(device).id());\n"
                                  "}\n");
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  const auto found = findings_of(j, "source-stream-id-as-handle");
  ASSERT_EQ(found.size(), 1u) << r.out;
  EXPECT_EQ(found[0].line, 4);
  EXPECT_EQ(found[0].column, 10);
  EXPECT_EQ(found[0].symbol, "torch::stable::accelerator::Stream::id");
  // The real header's nativeHandle() is guarded for 2.13.
  EXPECT_TRUE(says(finding_at(j, "source-stream-id-as-handle", 4, 10), "help", ".nativeHandle() (PyTorch 2.13+)"));
}

TEST(LintRulesRealHeaders, SourceDispatcherScalarArg) {
  TORCHABI_REQUIRE_REAL_TORCH();
  auto r = lint_with_real_headers("dispatch.cpp",
                                  "#include <torch/csrc/stable/c/shim.h>\n"
                                  "AOTITorchError filled(StableIValue* stack) {\n"
                                  "  return torch_call_dispatcher(\"aten::full\", \"\", stack, TORCH_ABI_VERSION);\n"
                                  "}\n"
                                  "AOTITorchError randoms(StableIValue* stack) {\n"
                                  "  return torch_call_dispatcher(\"aten::rand\", \"generator\", stack, TORCH_ABI_VERSION);\n"
                                  "}\n");
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  const auto found = findings_of(j, "source-dispatcher-scalar-arg");
  ASSERT_EQ(found.size(), 1u) << r.out;  // aten::rand.generator takes no Scalar
  EXPECT_EQ(found[0].line, 3);
  EXPECT_EQ(found[0].column, 32);
  EXPECT_EQ(found[0].symbol, "aten::full");
  EXPECT_TRUE(says(finding_at(j, "source-dispatcher-scalar-arg", 3, 32), "help", "torch::stable::full (PyTorch 2.10)"));
}

// No green without analysis: stable headers that are nowhere to be found
// make the file unanalysed, an error (exit 1), not a silent "STABLE".
TEST(LintRules, StableHeadersNotFoundIsAnErrorNotAPass) {
  const std::string f = fixture("source-torch-headers-not-found/fires.cpp");
  auto r = lint_fixture("source-torch-headers-not-found/fires.cpp", /*stand_in_headers=*/false);
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-torch-headers-not-found"), (V{{f, 3, 1, "torch/csrc/stable/library.h"}})) << r.out;
  const auto* e = finding_at(j, "source-torch-headers-not-found", 3, 1);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ((*e)["severity"], "error");
  EXPECT_TRUE(says(e, "message", "and the 1 other stable PyTorch headers it includes were not found")) << e->dump(1);
  EXPECT_TRUE(says(e, "help", "--torch-include")) << e->dump(1);
  // Said once for the file, not once per API as "not in these headers".
  EXPECT_TRUE(findings_of(j, "build-api-not-in-headers").empty()) << r.out;
  // Nothing was analysed: no release is named, and no target asked for.
  EXPECT_TRUE(findings_of(j, "build-target-version-missing").empty()) << r.out;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit")
      EXPECT_EQ(s.value("loads_on", ""), "lowest TORCH_TARGET_VERSION: unknown (the stable PyTorch headers it includes were not found)")
          << s.dump(1);

  auto clean = lint_fixture("source-torch-headers-not-found/clean.cpp");
  ASSERT_NE(clean.exit_code, 2) << clean.err;
  EXPECT_TRUE(findings_of(clean.json(), "source-torch-headers-not-found").empty()) << clean.out;
}

TEST(LintRules, EveryLintRuleHasAFixturePairAndADocEntry) {
  for (const char* rule : {"source-unstable-include", "source-unstable-api", "source-unstable-macro",
                           "version-target-implausible", "version-api-after-target", "source-bool-macro-flag",
                           "source-target-version-undefined", "source-shim-declaration-mismatch",
                           "source-suppression-without-reason", "source-parse-incomplete", "source-tu-not-analysed",
                           "source-inactive-branch", "version-macro-missing-at-target", "source-stream-id-as-handle",
                           "source-dispatcher-scalar-arg", "build-target-version-missing",
                           "build-api-hidden-by-configuration", "build-api-not-in-headers", "build-header-error",
                           "build-api-header-not-included", "source-torch-headers-not-found", "source-tu-over-limit",
                           "source-undefined-stable-function", "source-tu-parse-failed"}) {
    EXPECT_TRUE(std::filesystem::exists(fixture(std::string(rule) + "/fires.cpp"))) << rule;
    EXPECT_TRUE(std::filesystem::exists(fixture(std::string(rule) + "/clean.cpp"))) << rule;
    auto r = run_torchabi({"explain", rule});
    EXPECT_EQ(r.exit_code, 0) << rule << ": " << r.err;
  }
}

// Issue 37: a #define is never a use. A project header that replaces c10's
// C10_CUDA_CHECK in a stable build defines it with STD_CUDA_CHECK; its uses
// are judged by that definition, so nothing fires, and no fix-it edits it.
const char* kOwnCudaCheck = R"(#pragma once
#include <torch/csrc/stable/macros.h>
// The stable build's own C10_CUDA_CHECK, in place of c10's.
#undef C10_CUDA_CHECK
#define C10_CUDA_CHECK(EXPR) STD_CUDA_CHECK(EXPR)
)";
const char* kUnstableCudaCheck = R"(#pragma once
#include <torch/csrc/stable/macros.h>
#define C10_CUDA_CHECK(EXPR) TORCH_CHECK((EXPR) == 0, "CUDA error")
)";
const char* kCudaCheckUse = R"(#include "cuda_compat.h"

int checked(int e) {
  C10_CUDA_CHECK(e);
  C10_CUDA_CHECK(e + 1);
  return e;
}
)";

std::string cuda_check_project(const char* header) {
  const std::string dir = make_temp_dir();
  write_file(dir, "include/cuda_compat.h", header);
  return write_file(dir, "ops.cpp", kCudaCheckUse);
}

// No fix-it of the report edits a line of `header` that holds a #define.
void expect_no_fix_in_defines(const nlohmann::json& j) {
  for (const auto& f : j["findings"]) {
    if (!f.contains("fix") || f["fix"].is_null()) continue;
    const std::string file = f["fix"].value("file", std::string());
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const size_t begin = f["fix"].value("begin_offset", size_t{0});
    const size_t line_start = text.rfind('\n', begin == 0 ? 0 : begin - 1);
    const std::string line = text.substr(line_start == std::string::npos ? 0 : line_start + 1, 80);
    EXPECT_EQ(line.find("#define"), std::string::npos) << f;
  }
}

TEST(LintRules, SourceUnstableMacroTheProjectsOwnDefinitionIsNotAUse) {
  const std::string cpp = cuda_check_project(kOwnCudaCheck);
  const std::string inc = "-I" + std::filesystem::path(cpp).parent_path().string() + "/include";
  // Stand-in headers: the whole AST.
  auto r = lint_json({cpp, "--", "-std=c++17", inc, "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x020a000000000000"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(findings_of(r.json(), "source-unstable-macro").empty()) << r.out;
  // No PyTorch headers at all: the token-level scan neither reports the
  // #define / #undef of C10_CUDA_CHECK nor its uses.
  auto bare = lint_json({cpp, "--", "-std=c++17", inc, "-DTORCH_TARGET_VERSION=0x020a000000000000"});
  EXPECT_TRUE(findings_of(bare.json(), "source-unstable-macro").empty()) << bare.out;
  expect_no_fix_in_defines(bare.json());
}

TEST(LintRules, SourceUnstableMacroAnUnstableProjectDefinitionIsReportedAtItsBody) {
  const std::string cpp = cuda_check_project(kUnstableCudaCheck);
  const std::string dir = std::filesystem::path(cpp).parent_path().string();
  const std::string header = dir + "/include/cuda_compat.h";
  for (bool headers : {true, false}) {
    std::vector<std::string> args = {cpp, "--", "-std=c++17", "-I" + dir + "/include", "-DTORCH_TARGET_VERSION=0x020a000000000000"};
    if (headers) args.insert(args.end(), {"-I", stand_ins()});
    auto r = lint_json(args);
    EXPECT_EQ(r.exit_code, 1) << r.out;
    auto j = r.json();
    // Once, at TORCH_CHECK in the #define; not at the two uses of C10_CUDA_CHECK.
    EXPECT_EQ(findings_of(j, "source-unstable-macro"), (V{{header, 3, 30, "TORCH_CHECK"}})) << r.out;
    const auto* f = finding_at(j, "source-unstable-macro", 3, 30);
    ASSERT_NE(f, nullptr) << r.out;
    EXPECT_NE((*f)["message"].get<std::string>().find("macro C10_CUDA_CHECK is defined with unstable PyTorch macro TORCH_CHECK"),
              std::string::npos) << (*f)["message"];
    EXPECT_TRUE(!f->contains("fix") || (*f)["fix"].is_null()) << *f;
    expect_no_fix_in_defines(j);
  }
}

// A stable macro the headers in use do not define: named, with the release
// that added it, whatever clang's error says (here "a type specifier is
// required", at namespace scope).
TEST(LintRules, BuildApiNotInHeadersForAMacro) {
  const std::string dir = make_temp_dir();
  std::filesystem::copy(stand_ins(), dir + "/inc", std::filesystem::copy_options::recursive);
  // 2.9's headers: no STD_CUDA_CHECK at all.
  write_file(dir, "inc/torch/csrc/stable/macros.h",
             "#pragma once\n#include <torch/csrc/stable/version.h>\n#include <torch/headeronly/util/Exception.h>\n");
  {
    std::ifstream in(dir + "/inc/torch/headeronly/version.h");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    replace_all(text, "TORCH_VERSION_MINOR 12", "TORCH_VERSION_MINOR 9");
    replace_all(text, "(0ULL + 12) << 48", "(0ULL + 9) << 48");
    std::ofstream(dir + "/inc/torch/headeronly/version.h") << text;
  }
  const std::string cpp = write_file(dir, "ns.cpp", "#include <torch/csrc/stable/macros.h>\n\nSTD_CUDA_CHECK(0);\n");
  auto r = lint_json({cpp, "--", "-std=c++17", "-I", dir + "/inc"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto j = r.json();
  const auto* e = finding_at(j, "build-api-not-in-headers", 3, 1);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_EQ((*e)["location"]["symbol"], "STD_CUDA_CHECK");
  const std::string message = (*e)["message"];
  EXPECT_NE(message.find("macro STD_CUDA_CHECK is not defined by the PyTorch 2.9 headers in use"), std::string::npos) << message;
  EXPECT_NE(message.find("introduced in PyTorch 2.10"), std::string::npos) << message;
  EXPECT_TRUE(findings_of(j, "source-parse-incomplete").empty()) << r.out;
  // Headers that have it behind their version guard: the target's doing.
  auto guarded = lint_json({cpp, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x0209000000000000"});
  auto gj = guarded.json();
  EXPECT_NE(finding_at(gj, "version-api-after-target", 3, 1), nullptr) << guarded.out;
  EXPECT_TRUE(findings_of(gj, "build-api-not-in-headers").empty()) << guarded.out;
  // Clean: in a function, with headers that define it.
  const std::string ok = write_file(dir, "ok.cpp", "#include <torch/csrc/stable/macros.h>\n\nvoid f(int e) { STD_CUDA_CHECK(e); }\n");
  auto clean = lint_json({ok, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x020a000000000000"});
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_TRUE(findings_of(clean.json(), "build-api-not-in-headers").empty()) << clean.out;
}

// Issue 37: AOTITorchError is int32_t. A hand-written declaration compares
// by canonical types in C, C++ and CUDA, with or without the shim header, with
// or without USE_CUDA.
TEST(LintRules, SourceShimDeclarationMismatchComparesCanonicalTypes) {
  const std::string dir = make_temp_dir();
  const std::string decl =
      "extern \"C\" int32_t aoti_torch_get_current_cuda_stream(int32_t device_index, void** ret_stream);\n";
  for (const char* ext : {"cpp", "cu"}) {
    for (bool shim : {false, true}) {
      const std::string name = std::string("good_") + (shim ? "shim." : "plain.") + ext;
      const std::string file = write_file(
          dir, name,
          std::string(shim ? "#include <torch/csrc/inductor/aoti_torch/c/shim.h>\n" : "#include <cstdint>\n") + decl);
      for (bool use_cuda : {false, true}) {
        std::vector<std::string> args = {file, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x020a000000000000"};
        if (use_cuda) args.push_back("-DUSE_CUDA");
        auto r = lint_json(args);
        EXPECT_TRUE(findings_of(r.json(), "source-shim-declaration-mismatch").empty()) << name << " " << use_cuda << r.out;
      }
    }
    const std::string bad = write_file(dir, std::string("bad.") + ext,
                                       "#include <cstdint>\nextern \"C\" int64_t aoti_torch_get_current_cuda_stream("
                                       "int32_t device_index, void** ret_stream);\n");
    auto r = lint_json({bad, "--", "-std=c++17", "-DTORCH_TARGET_VERSION=0x020a000000000000"});
    EXPECT_EQ(findings_of(r.json(), "source-shim-declaration-mismatch"), (V{{bad, 2, 20, "aoti_torch_get_current_cuda_stream"}}))
        << r.out;
  }
  // C: every file-scope declaration has C linkage.
  const std::string c = write_file(dir, "decls.c",
                                   "#include <stdint.h>\nstruct AtenTensorOpaque;\n"
                                   "int32_t aoti_torch_get_dim(struct AtenTensorOpaque* tensor, int64_t* ret_dim);\n"
                                   "long aoti_torch_get_numel(struct AtenTensorOpaque* tensor, int64_t* ret_numel);\n");
  auto rc = lint_json({c, "--"});
  EXPECT_EQ(findings_of(rc.json(), "source-shim-declaration-mismatch"), (V{{c, 4, 6, "aoti_torch_get_numel"}})) << rc.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint
