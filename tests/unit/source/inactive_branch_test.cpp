// Code another build configuration compiles: the directive structure
// (inactive_branches.h), the token scan (token_scan.h), the
// source-inactive-branch check on its fires/clean pair, a .cu file's
// device-only branch, and the merge of configurations (configurations.h).
#include <gtest/gtest.h>

#include "analyzers/source/configurations.h"
#include "analyzers/source/inactive_branches.h"
#include "analyzers/source/token_scan.h"
#include "common/input_error.h"
#include "test_helpers.h"

namespace torchabi::source::test {
namespace {

using Positions = std::vector<std::pair<uint32_t, uint32_t>>;

std::string slice(std::string_view text, uint32_t b, uint32_t e) { return std::string(text.substr(b, e - b)); }

TEST(ConditionalBranches, ChainsNestingAndDirectivesInComments) {
  const std::string text =
      "#ifdef USE_ROCM\n"       // 1
      "int a;\n"                // 2
      "#elif CUDA_VERSION >= 12000 // new\n"
      "int b;\n"                // 4
      "#  else\n"               // 5
      "#if 0\n"                 // 6
      "int c;\n"                // 7
      "#endif\n"                // 8
      "#endif\n"                // 9
      "/*\n#if 1\n*/\n";
  auto b = scan_conditional_branches(text);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].directive, "#ifdef USE_ROCM");
  EXPECT_EQ(slice(text, b[0].body_begin, b[0].body_end), "int a;\n");
  EXPECT_EQ(b[1].directive, "#elif CUDA_VERSION >= 12000");
  EXPECT_EQ(b[1].chain_opening, "#ifdef USE_ROCM");
  EXPECT_EQ(b[2].directive, "#else");
  EXPECT_EQ(b[2].line, 5u);
  EXPECT_EQ(b[2].describe(), "`#else` of `#ifdef USE_ROCM` (line 1)");
  EXPECT_EQ(b[3].directive, "#if 0");
  EXPECT_EQ(slice(text, b[3].body_begin, b[3].body_end), "int c;\n");
}

TEST(ConditionalBranches, SkippedRangesMapToOutermostBranchesNotTheIncludeGuard) {
  const std::string text =
      "#ifndef GUARD_H\n"
      "#define GUARD_H\n"
      "#ifdef A\n"
      "x\n"
      "#ifdef B\n"
      "y\n"
      "#endif\n"
      "#elif C\n"
      "z\n"
      "#else\n"
      "w\n"
      "#endif\n"
      "#endif\n";
  const uint32_t guard = 0, a = uint32_t(text.find("#ifdef A")), elif = uint32_t(text.find("#elif C"));
  const uint32_t end_a = uint32_t(text.find("#endif\n#endif"));
  // The guard skipped (a second inclusion), #ifdef A skipped, then #elif C taken.
  auto inactive = inactive_branches(text, {{guard, uint32_t(text.size())}, {a, elif}});
  ASSERT_EQ(inactive.size(), 1u);
  EXPECT_EQ(inactive[0].directive, "#ifdef A");
  // A taken #ifdef A: clang skips #elif .. #endif in one range; both siblings are inactive.
  inactive = inactive_branches(text, {{elif, end_a}});
  ASSERT_EQ(inactive.size(), 2u);
  EXPECT_EQ(inactive[0].directive, "#elif C");
  EXPECT_EQ(inactive[1].directive, "#else");
  EXPECT_EQ(inactive[1].describe(), "`#else` of `#ifdef A` (line 3)");
}

TEST(TokenScan, FindsIncludesNamesMacrosAndMembersButNotCommentsStringsOrDefinitions) {
  const std::string text =
      "#include <c10/hip/HIPStream.h>\n"
      "#include \"torch/csrc/stable/tensor.h\"\n"
      "// at::Tensor in a comment\n"
      "const char* s = \"at::Tensor in a string\"; auto r = R\"x(c10::kFloat)x\";\n"
      "at::Tensor out = ::at::empty({1});\n"
      "out.zero_();\n"
      "TORCH_CHECK(out.defined());\n"
      "torch::stable::Tensor fine;\n"
      "#define TORCH_LIBRARY_EXPAND(n) STABLE_TORCH_LIBRARY(n)\n"
      "#define MY_CHECK(c) TORCH_CHECK(c)\n"
      "using namespace c10;\n";
  TokenScanRules rules;
  rules.env = &env();
  std::vector<std::pair<std::string, TokenUseKind>> got;
  for (const auto& u : scan_token_uses(text, 0, uint32_t(text.size()), rules)) got.emplace_back(u.symbol, u.kind);
  const std::vector<std::pair<std::string, TokenUseKind>> want = {
      {"c10/hip/HIPStream.h", TokenUseKind::Include}, {"at::Tensor", TokenUseKind::Name},
      {"at::empty", TokenUseKind::Name},             {"at::Tensor::zero_", TokenUseKind::Member},
      {"TORCH_CHECK", TokenUseKind::Macro},          {"at::Tensor::defined", TokenUseKind::Member},
      {"TORCH_CHECK", TokenUseKind::Macro},
      {"c10", TokenUseKind::Namespace}};
  EXPECT_EQ(got, want);
}

TEST(TokenScan, VariablesKnownFromTheAstAndUnqualifiedNames) {
  const std::string text = "W.new_empty({2}); Tensor t; t.fill_(1); this->W.add_(t); other.size(0);\n";
  std::unordered_map<std::string, TokenScanRules::Resolved> names = {{"Tensor", {"at::Tensor", false}}};
  TokenScanRules rules;
  rules.env = &env();
  rules.unqualified_names = &names;
  rules.variable_type = [](std::string_view n, uint32_t) { return n == "W" ? std::string("at::Tensor") : std::string(); };
  std::vector<std::string> got;
  for (const auto& u : scan_token_uses(text, 0, uint32_t(text.size()), rules)) got.push_back(u.symbol + "@" + u.written);
  EXPECT_EQ(got, (std::vector<std::string>{"at::Tensor::new_empty@W.new_empty", "at::Tensor@Tensor",
                                           "at::Tensor::fill_@t.fill_", "at::Tensor::add_@W.add_"}));
}

TEST(InactiveBranch, EveryUseInASkippedBranchNamesItsDirective) {
  const std::string dir = lint_fixture("source-inactive-branch");
  TuResult r = lint_file(dir + "/fires.cpp");
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(positions(r, "source-inactive-branch"), (Positions{{6, 10}, {11, 3}, {16, 3}, {16, 23}, {17, 3}}));
  const findings::Finding* include = find_finding(r, "source-inactive-branch", 6);
  ASSERT_NE(include, nullptr);
  EXPECT_EQ(include->location.symbol, "c10/hip/HIPStream.h");
  EXPECT_NE(include->message.find("`#ifdef USE_ROCM`"), std::string::npos) << include->message;
  const findings::Finding* check = find_finding(r, "source-inactive-branch", 11);
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->location.symbol, "TORCH_CHECK");
  EXPECT_NE(check->help.find("STD_TORCH_CHECK"), std::string::npos) << check->help;
  bool names_option = false;
  for (const auto& n : check->notes) names_option |= n.find("--also-define FLASHATTENTION_DISABLE_FP8") != std::string::npos;
  EXPECT_TRUE(names_option);
  const findings::Finding* member = find_finding(r, "source-inactive-branch", 17);
  ASSERT_NE(member, nullptr);
  EXPECT_EQ(member->location.symbol, "at::Tensor::zero_");
  EXPECT_FALSE(member->fix.has_value());
  // The active code is stable: nothing else is reported.
  for (const auto& f : r.findings) EXPECT_EQ(f.rule, "source-inactive-branch") << f.message;
  EXPECT_EQ(r.subject.verdict, "STABLE");
}

TEST(InactiveBranch, StableBranchesAreClean) {
  TuResult r = lint_file(lint_fixture("source-inactive-branch/clean.cpp"));
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

TEST(InactiveBranch, ABranchAnotherInclusionCompiledIsLeftToTheAstChecks) {
  const std::string dir = std::filesystem::path(::testing::TempDir() + "/inactive_twice").lexically_normal().string();
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/part.h") << "#ifdef WITH_CHECK\n"
                                    "inline void part_check(int v) { TORCH_CHECK(v > 0); }\n"
                                    "#endif\n";
  std::ofstream(dir + "/main.cpp") << "#include <c10/util/Exception.h>\n"
                                      "#define WITH_CHECK\n"
                                      "#include \"part.h\"\n"
                                      "#undef WITH_CHECK\n"
                                      "#include \"part.h\"\n";
  TuResult r = lint_file(dir + "/main.cpp", {}, false);
  EXPECT_EQ(positions(r, "source-unstable-macro", dir + "/part.h"), (Positions{{2, 33}}));
  EXPECT_TRUE(positions(r, "source-inactive-branch").empty());
}

TEST(InactiveBranch, DeviceOnlyCodeOfAKernelThroughTheStandInToolkit) {
  TuResult r = lint_file(lint_fixture("cuda/device_branch.cu"));
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(positions(r, "source-inactive-branch"), (Positions{{8, 21}}));
  const findings::Finding* f = find_finding(r, "source-inactive-branch", 8);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->location.symbol, "at::ceil_div");
  EXPECT_NE(f->message.find("#ifdef __CUDA_ARCH__"), std::string::npos) << f->message;
  // Parsed with CUDA (the stand-in), not degraded.
  EXPECT_TRUE(positions(r, "source-parse-incomplete").empty());
}

TEST(Configurations, AnotherConfigurationReplacesTheInactiveFindingWithTheAstOne) {
  const std::string fires = lint_fixture("source-inactive-branch/fires.cpp");
  auto args = inputs::translate_flags(fires, {"-std=c++17", "-I", stand_in_include(), "-I/usr/include"},
                                      lint_fixture("source-inactive-branch"));
  auto as_report = [](TuResult r) {
    findings::Report rep;
    rep.findings = std::move(r.findings);
    rep.subjects.push_back(std::move(r.subject));
    return rep;
  };
  const std::vector<std::string> roots = {lint_fixture("source-inactive-branch")};
  findings::Report report = as_report(analyze_translation_unit(args, env(), roots));
  auto fp8 = with_define({args}, "FLASHATTENTION_DISABLE_FP8");
  ASSERT_EQ(fp8.size(), 1u);
  EXPECT_EQ(fp8[0].args.back(), "-DFLASHATTENTION_DISABLE_FP8");
  merge_configuration(report, as_report(analyze_translation_unit(fp8[0], env(), roots)), "-DFLASHATTENTION_DISABLE_FP8");
  drop_inactive_duplicates(report);
  size_t macro = 0, inactive_at_11 = 0;
  for (const auto& f : report.findings) {
    if (f.location.line != 11) continue;
    if (f.rule == "source-unstable-macro") {
      ++macro;
      EXPECT_EQ(f.notes.back(), "found in the configuration with -DFLASHATTENTION_DISABLE_FP8");
    }
    if (f.rule == "source-inactive-branch") ++inactive_at_11;
  }
  EXPECT_EQ(macro, 1u);
  EXPECT_EQ(inactive_at_11, 0u);
  EXPECT_EQ(report.subjects.at(0).verdict, "UNSTABLE");
  EXPECT_THROW(with_define({args}, "1BAD"), InputError);
}

}  // namespace
}  // namespace torchabi::source::test
