// Every lint check on its fires/clean fixture pair (fixtures/lint/<rule>/),
// asserting the exact findings: rule, line and column, plus the facts that
// matter for each rule (replacement, fix, chain, version).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_helpers.h"
#include "real_torch.h"

namespace torchabi::source::test {
namespace {

using Positions = std::vector<std::pair<uint32_t, uint32_t>>;

std::string text_at(const findings::FixIt& fix) {
  std::string content = read_file(fix.file);
  return content.substr(fix.begin_offset, fix.end_offset - fix.begin_offset);
}

TEST(UnstableInclude, DirectThroughProjectHeaderAndThroughThirdPartyHeader) {
  const std::string dir = lint_fixture("source-unstable-include");
  TuResult r = lint_file(dir + "/fires.cpp");
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(positions(r, "source-unstable-include", dir + "/fires.cpp"), (Positions{{4, 1}, {6, 1}}));
  EXPECT_EQ(positions(r, "source-unstable-include", dir + "/helpers.h"), (Positions{{2, 1}}));

  const findings::Finding* through_project = find_finding(r, "source-unstable-include", 2, 1);
  ASSERT_NE(through_project, nullptr);
  EXPECT_EQ(through_project->location.symbol, "c10/core/ScalarType.h");
  ASSERT_EQ(through_project->notes.size(), 1u);
  EXPECT_NE(through_project->notes[0].find("fires.cpp:5"), std::string::npos) << through_project->notes[0];
  ASSERT_TRUE(through_project->fix.has_value());
  EXPECT_EQ(through_project->fix->replacement, "torch/headeronly/core/ScalarType.h");
  EXPECT_EQ(text_at(*through_project->fix), "c10/core/ScalarType.h");

  const findings::Finding* third_party = find_finding(r, "source-unstable-include", 6, 1);
  ASSERT_NE(third_party, nullptr);
  EXPECT_EQ(third_party->location.symbol, "c10/util/Exception.h");
  EXPECT_NE(third_party->message.find("<thirdparty/tensor_utils.h>"), std::string::npos) << third_party->message;
  ASSERT_EQ(third_party->notes.size(), 1u);
  EXPECT_NE(third_party->notes[0].find("tensor_utils.h:4 <c10/util/Exception.h>"), std::string::npos)
      << third_party->notes[0];
  EXPECT_FALSE(third_party->fix.has_value());
  EXPECT_EQ(r.subject.verdict, "UNSTABLE");
}

TEST(UnstableInclude, StableHeadersOnlyIsClean) {
  TuResult r = lint_file(lint_fixture("source-unstable-include/clean.cpp"));
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(positions(r, "source-unstable-include").empty());
  EXPECT_EQ(r.subject.verdict, "STABLE");
}

// One parse of the 1.13 ATen fixture serves every reference test.
class UnstableApi : public ::testing::Test {
protected:
  static void SetUpTestSuite() { result_ = new TuResult(lint_file(lint_fixture("source-unstable-api/fires.cpp"))); }
  static void TearDownTestSuite() { delete result_; }
  static TuResult* result_;
};
TuResult* UnstableApi::result_ = nullptr;

TEST_F(UnstableApi, EveryUseIsReportedOnce) {
  EXPECT_EQ(positions(*result_, "source-unstable-api"),
            (Positions{{4, 17}, {5, 9}, {7, 1}, {7, 10}, {8, 8}, {8, 14}, {9, 3}, {9, 22}}));
}

TEST_F(UnstableApi, UsingNamespaceAtResolvesTensorToAtTensor) {
  const findings::Finding* f = find_finding(*result_, "source-unstable-api", 7, 1);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->location.symbol, "at::Tensor");
  ASSERT_TRUE(f->fix.has_value());
  EXPECT_EQ(text_at(*f->fix), "Tensor");
  EXPECT_EQ(f->fix->replacement, "torch::stable::Tensor");
  EXPECT_EQ(f->fix->safety, findings::FixSafety::Safe);
  const findings::Finding* directive = find_finding(*result_, "source-unstable-api", 4, 17);
  ASSERT_NE(directive, nullptr);
  EXPECT_EQ(directive->location.symbol, "at");
}

TEST_F(UnstableApi, TypedefAutoAndConstantsAreResolved) {
  const findings::Finding* td = find_finding(*result_, "source-unstable-api", 5, 9);
  ASSERT_NE(td, nullptr);
  EXPECT_EQ(td->location.symbol, "at::Tensor");
  ASSERT_TRUE(td->fix.has_value());
  EXPECT_EQ(text_at(*td->fix), "at::Tensor");

  const findings::Finding* deduced = find_finding(*result_, "source-unstable-api", 8, 8);
  ASSERT_NE(deduced, nullptr);
  EXPECT_NE(deduced->message.find("'y' has the deduced type at::Tensor"), std::string::npos) << deduced->message;

  const findings::Finding* k = find_finding(*result_, "source-unstable-api", 9, 22);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->location.symbol, "c10::kFloat");
  ASSERT_TRUE(k->fix.has_value());
  EXPECT_EQ(text_at(*k->fix), "at::kFloat");
  EXPECT_EQ(k->fix->replacement, "torch::headeronly::ScalarType::Float");  // the real headers have no kFloat
}

TEST_F(UnstableApi, TensorMethodBecomesStableOpWithExactRewrite) {
  const findings::Finding* f = find_finding(*result_, "source-unstable-api", 8, 14);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->location.symbol, "at::Tensor::transpose");
  ASSERT_TRUE(f->fix.has_value());
  EXPECT_EQ(text_at(*f->fix), "x.transpose(0, 1)");
  EXPECT_EQ(f->fix->replacement, "torch::stable::transpose(x, 0, 1)");
  EXPECT_EQ(f->fix->safety, findings::FixSafety::Unsafe);
}

// c10/util/python_stub.h re-declares Python's PyObject: a global alias of a
// type defined outside torch names that API, not torch's; c10's own alias of
// the same type is c10's.
TEST(UnstableApiForeignAlias, PythonsObjectTypeIsNotTorchsThroughC10sAlias) {
  TuResult r = lint_file(lint_fixture("source-unstable-api/python_object.cpp"));
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  std::vector<std::string> symbols;
  for (const auto& f : r.findings)
    if (f.rule == "source-unstable-api") symbols.push_back(f.location.symbol);
  EXPECT_EQ(symbols, std::vector<std::string>{"c10::ObjectRef"});
}

TEST(UnstableApiClean, StableCodeHasNoFindings) {
  TuResult r = lint_file(lint_fixture("source-unstable-api/clean.cpp"));
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
  EXPECT_EQ(r.subject.verdict, "STABLE");
}

TEST(UnstableMacro, ExpansionsIncludingThoseOfAProjectMacro) {
  const std::string cpp = lint_fixture("source-unstable-macro/fires.cpp");
  TuResult r = lint_file(cpp);
  // CHECK_POSITIVE is the project's macro: reported at TORCH_CHECK in its
  // #define (4:27), not where it is expanded (8:3).
  EXPECT_EQ(positions(r, "source-unstable-macro"), (Positions{{4, 27}, {7, 3}, {9, 16}}));
  // TORCH_CHECK's expansion through CHECK_POSITIVE is not reported again as API.
  EXPECT_TRUE(positions(r, "source-unstable-api").empty());
  const findings::Finding* check = find_finding(r, "source-unstable-macro", 7, 3);
  ASSERT_NE(check, nullptr);
  ASSERT_TRUE(check->fix.has_value());
  EXPECT_EQ(text_at(*check->fix), "TORCH_CHECK");
  EXPECT_EQ(check->fix->replacement, "STD_TORCH_CHECK");
  EXPECT_EQ(check->fix->safety, findings::FixSafety::Safe);
  const findings::Finding* error = find_finding(r, "source-unstable-macro", 9, 16);
  ASSERT_NE(error, nullptr);
  ASSERT_TRUE(error->fix.has_value());
  EXPECT_EQ(text_at(*error->fix), "AT_ERROR(");
  EXPECT_EQ(error->fix->replacement, "STD_TORCH_CHECK(false, ");
  // In the definition: named, with its expansion, and a fix-it of the #define,
  // which is the main file's own (a header's gets none: the next test).
  const findings::Finding* in_def = find_finding(r, "source-unstable-macro", 4, 27);
  ASSERT_NE(in_def, nullptr);
  EXPECT_EQ(in_def->location.symbol, "TORCH_CHECK");
  EXPECT_FALSE(in_def->severity.has_value());
  EXPECT_NE(in_def->message.find("macro CHECK_POSITIVE is defined with unstable PyTorch macro TORCH_CHECK"),
            std::string::npos) << in_def->message;
  ASSERT_TRUE(in_def->fix.has_value());
  EXPECT_EQ(text_at(*in_def->fix), "TORCH_CHECK");
  EXPECT_EQ(in_def->fix->replacement, "STD_TORCH_CHECK");
  ASSERT_FALSE(in_def->notes.empty());
  EXPECT_EQ(in_def->notes[0], "CHECK_POSITIVE is expanded at " + cpp + ":8");
  EXPECT_NE(in_def->help.find("STD_TORCH_CHECK"), std::string::npos) << in_def->help;
  EXPECT_NE(in_def->help.find("definition of CHECK_POSITIVE (" + cpp + ":4)"), std::string::npos) << in_def->help;
}

TEST(UnstableMacro, ChainOfProjectMacrosIsReportedInTheInnermostDefinition) {
  const std::string dir = lint_fixture("source-unstable-macro");
  TuResult r = lint_file(dir + "/legacy_build.cpp");
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(positions(r, "source-unstable-macro", dir + "/legacy_build.cpp").empty());
  // TORCH_CHECK in MYEXT_CHECK's #define (line 10); TORCH_LIBRARY_EXPAND is
  // not expanded in this build: a note at its #define (6:37), no error.
  EXPECT_EQ(positions(r, "source-unstable-macro", dir + "/registration.h"), (Positions{{6, 37}, {10, 32}}));
  const findings::Finding* f = find_finding(r, "source-unstable-macro", 10, 32);
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->severity.has_value());
  EXPECT_NE(f->message.find("macro MYEXT_CHECK is defined with unstable PyTorch macro TORCH_CHECK"), std::string::npos)
      << f->message;
  ASSERT_EQ(f->notes.size(), 2u);
  EXPECT_EQ(f->notes[0], "MYEXT_CHECK_POSITIVE is expanded at " + dir +
                             "/legacy_build.cpp:8 (MYEXT_CHECK_POSITIVE -> MYEXT_CHECK -> TORCH_CHECK)");
  EXPECT_EQ(f->notes[1], "MYEXT_CHECK_POSITIVE is defined at " + dir + "/registration.h:11");
  EXPECT_FALSE(f->fix.has_value());
  const findings::Finding* note = find_finding(r, "source-unstable-macro", 6, 37);
  ASSERT_NE(note, nullptr);
  ASSERT_TRUE(note->severity.has_value());
  EXPECT_EQ(*note->severity, findings::Severity::Note);
  EXPECT_EQ(note->location.symbol, "TORCH_LIBRARY");
  EXPECT_NE(note->message.find("TORCH_LIBRARY_EXPAND"), std::string::npos) << note->message;
  EXPECT_FALSE(note->fix.has_value());
  EXPECT_TRUE(positions(r, "source-unstable-api").empty());
}

// AT_DISPATCH_* -> THO_DISPATCH_V2: the real THO_DISPATCH_V2 (2.14.1) passes
// the expanded body to one more macro call, so a body with a comma outside
// parentheses (`std::pair<scalar_t, int>`) goes in parentheses; one whose
// commas are all inside parentheses or a comment keeps the plain form.
TEST(UnstableMacro, ADispatchBodyWithACommaOutsideParenthesesIsParenthesized) {
  // Debian's libtorch-dev (1.13): ATen/Dispatch.h alone, the stand-ins have no AT_DISPATCH.
  if (!std::filesystem::exists("/usr/include/ATen/Dispatch.h")) GTEST_SKIP() << "no /usr/include/ATen/Dispatch.h";
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("dispatch_body_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string cpp = (dir / "k.cpp").string();
  std::ofstream(cpp) << "#include <ATen/Dispatch.h>\n#include <algorithm>\n#include <utility>\n"
                        "void k(c10::ScalarType st) {\n"
                        "  AT_DISPATCH_FLOATING_TYPES(st, \"a\", [&] { std::pair<scalar_t, int> p{}; (void)p; });\n"
                        "  AT_DISPATCH_FLOATING_TYPES(st, \"b\", [&] { (void)std::max(1, 2); /* x, y */ });\n"
                        "}\n";
  TuResult r = lint_file(cpp, {}, false);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  const findings::Finding* comma = find_finding(r, "source-unstable-macro", 5, 3);
  ASSERT_NE(comma, nullptr);
  ASSERT_TRUE(comma->fix.has_value());
  EXPECT_EQ(comma->fix->replacement,
            "THO_DISPATCH_V2(st, \"a\", AT_WRAP(([&] { std::pair<scalar_t, int> p{}; (void)p; })), "
            "AT_EXPAND(AT_FLOATING_TYPES))");
  const findings::Finding* plain = find_finding(r, "source-unstable-macro", 6, 3);
  ASSERT_NE(plain, nullptr);
  ASSERT_TRUE(plain->fix.has_value());
  EXPECT_EQ(plain->fix->replacement,
            "THO_DISPATCH_V2(st, \"b\", AT_WRAP([&] { (void)std::max(1, 2); /* x, y */ }), "
            "AT_EXPAND(AT_FLOATING_TYPES))");
}

// A project header that replaces c10's macro in a stable build: its own
// definition, its uses judged by it; with no torch header at all (token
// level) neither the #define, the #undef nor the uses are reported.
TEST(UnstableMacro, TheProjectsOwnDefinitionOfATorchMacroIsNotAUse) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("own_macro_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "compat.h") << "#pragma once\n#include <torch/csrc/stable/macros.h>\n#undef C10_CUDA_CHECK\n"
                                     "#define C10_CUDA_CHECK(EXPR) STD_CUDA_CHECK(EXPR)\n";
  const std::string cpp = (dir / "use.cpp").string();
  std::ofstream(cpp) << "#include \"compat.h\"\nint f(int e) {\n  C10_CUDA_CHECK(e);\n  return e;\n}\n";
  TuResult r = lint_file(cpp, {"-DTORCH_TARGET_VERSION=0x020a000000000000"});
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(positions(r, "source-unstable-macro").empty());
  TuResult bare = lint_file(cpp, {"-DTORCH_TARGET_VERSION=0x020a000000000000"}, false);
  ASSERT_TRUE(bare.failure.empty()) << bare.failure;
  EXPECT_TRUE(positions(bare, "source-unstable-macro").empty());
  for (const auto& f : bare.findings) EXPECT_FALSE(f.fix.has_value()) << f.rule << ": " << f.message;
  std::filesystem::remove_all(dir);
}

TEST(UnstableMacro, StableBuildOfADualBuildHeaderHasOnlyANoteWithRealHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string dir = lint_fixture("source-unstable-macro");
  TuResult r = lint_file(dir + "/stable_build.cpp", {"-I", ::torchabi::test::real_torch_include()}, false);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  for (const auto& f : r.findings) {
    ASSERT_TRUE(f.severity.has_value()) << f.rule << " " << f.location.line << ": " << f.message;
    EXPECT_EQ(*f.severity, findings::Severity::Note) << f.rule << ": " << f.message;
  }
  // TORCH_LIBRARY_EXPAND and MYEXT_CHECK are defined but not expanded: notes.
  EXPECT_EQ(positions(r, "source-unstable-macro"), (Positions{{6, 37}, {10, 32}}));
  EXPECT_EQ(r.subject.verdict, "STABLE");
}

TEST(UnstableMacro, StableMacroIsClean) {
  TuResult r = lint_file(lint_fixture("source-unstable-macro/clean.cpp"));
  EXPECT_TRUE(r.findings.empty());
}

// torch/headeronly defines c10::ScalarType, c10::toString(ScalarType),
// c10::Half, ... in namespace c10: where a declaration lives decides.
TEST(HeaderOnlyC10, UsesThroughHeaderOnlyHeadersAreStableWithRealHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  TuResult r = lint_file(lint_fixture("headeronly_c10/stable.cpp"), {"-I", ::torchabi::test::real_torch_include()}, false);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  for (const auto& f : r.findings) ADD_FAILURE() << f.rule << " " << f.location.line << ":" << f.location.column << " " << f.message;
  EXPECT_EQ(r.subject.verdict, "STABLE");
}

TEST(HeaderOnlyC10, ThroughUnstableHeadersOnlyTheC10OnlyCodeIsUnstable) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cpp = lint_fixture("headeronly_c10/mixed.cpp");
  TuResult r = lint_file(cpp, {"-I", ::torchabi::test::real_torch_include()}, false);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(positions(r, "source-unstable-include"), (Positions{{5, 1}, {6, 1}, {7, 1}}));
  // c10::Backend and its toString overload (c10/core/Backend.h), c10::elementSize
  // (c10/core/ScalarType.h); not c10::ScalarType, toString(ScalarType),
  // c10::is_complex (a using-declaration of torch::headeronly's) or c10::complex.
  EXPECT_EQ(positions(r, "source-unstable-api"), (Positions{{10, 26}, {10, 51}, {11, 49}}));
  const findings::Finding* to_string = find_finding(r, "source-unstable-api", 10, 51);
  ASSERT_NE(to_string, nullptr);
  ASSERT_FALSE(to_string->notes.empty());
  EXPECT_NE(to_string->notes[0].find("c10/core/Backend.h"), std::string::npos) << to_string->notes[0];
}

TEST(HeaderOnlyC10, FunctionRedeclaredInAnUnstableHeaderIsStable) {
  // Our own stand-in layout: an unstable header declares again a function a
  // header-only header defines, and adds an alias of its own.
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("redecl_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "inc/torch/headeronly");
  std::filesystem::create_directories(dir / "inc/c10");
  std::ofstream(dir / "inc/torch/headeronly/thing.h")
      << "#pragma once\nnamespace c10 { inline int twice(int v) { return 2 * v; } struct Thing { int v; }; }\n";
  std::ofstream(dir / "inc/c10/thing.h")
      << "#pragma once\n#include <torch/headeronly/thing.h>\nnamespace c10 { int twice(int); using ThingAlias = Thing; }\n";
  const std::string cpp = (dir / "use.cpp").string();
  std::ofstream(cpp) << "#include <c10/thing.h>\nint g() { c10::Thing t{1}; c10::ThingAlias a{2}; return c10::twice(t.v + a.v); }\n";
  TuResult r = lint_file(cpp, {"-I", (dir / "inc").string()}, false);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(positions(r, "source-unstable-include"), (Positions{{1, 1}}));
  // c10::twice lives in torch/headeronly, whichever declaration the call found;
  // the alias exists only in the unstable header.
  EXPECT_EQ(positions(r, "source-unstable-api"), (Positions{{2, 28}}));
  std::filesystem::remove_all(dir);
}

TEST(HeaderOnlyC10, TokenLevelLeavesHeaderOnlyNamesAlone) {
  const std::string cpp = lint_fixture("headeronly_c10/partial.cpp");
  TuResult r = lint_file(cpp, {}, false);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(positions(r, "source-parse-incomplete").size(), 1u);
  EXPECT_NE(find_finding(r, "source-unstable-api", 6, 32), nullptr);  // at::Tensor
  EXPECT_EQ(find_finding(r, "source-unstable-api", 6, 1), nullptr);   // c10::ScalarType
  EXPECT_EQ(find_finding(r, "source-unstable-api", 8, 1), nullptr);   // c10::Half
}

TEST(TargetImplausible, HexWithDecimalMinorShowsIntendedValue) {
  TuResult r = lint_file(lint_fixture("version-target-implausible/fires.cpp"));
  ASSERT_EQ(positions(r, "version-target-implausible"), (Positions{{2, 30}}));
  const findings::Finding& f = r.findings.front();
  EXPECT_NE(f.message.find("decodes to 2.16"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("0x020a000000000000"), std::string::npos) << f.message;
  ASSERT_TRUE(f.fix.has_value());
  EXPECT_EQ(text_at(*f.fix), "0x0210000000000000");
  EXPECT_EQ(f.fix->replacement, "0x020a000000000000");
}

TEST(TargetImplausible, ValidTargetIsClean) {
  TuResult r = lint_file(lint_fixture("version-target-implausible/clean.cpp"));
  EXPECT_TRUE(r.findings.empty());
  ASSERT_FALSE(r.subject.facts.empty());
  EXPECT_NE(r.subject.facts[0].second.find("2.10 (0x020a000000000000)"), std::string::npos);
}

TEST(ApiAfterTarget, GuardHiddenApiIsTranslatedFromTheCompileError) {
  TuResult r = lint_file(lint_fixture("version-api-after-target/fires.cpp"));
  ASSERT_EQ(positions(r, "version-api-after-target"), (Positions{{7, 25}}));
  const findings::Finding& f = *find_finding(r, "version-api-after-target", 7, 25);
  EXPECT_EQ(f.location.symbol, "torch_dtype_float8_e8m0fnu");
  EXPECT_NE(f.message.find("introduced in PyTorch 2.11, but TORCH_TARGET_VERSION is 2.10"), std::string::npos) << f.message;
  bool clang_note = false;
  for (const auto& n : f.notes) clang_note |= n.find("undeclared identifier") != std::string::npos;
  EXPECT_TRUE(clang_note);
}

TEST(ApiAfterTarget, DeclaredApiNewerThanALateTargetIsFoundInTheAst) {
  TuResult r = lint_file(lint_fixture("version-api-after-target/late_define.cpp"));
  ASSERT_EQ(positions(r, "version-api-after-target"), (Positions{{7, 69}}));
  EXPECT_EQ(r.findings.front().location.symbol, "torch::stable::reshape");
  EXPECT_NE(r.findings.front().message.find("2.10, but TORCH_TARGET_VERSION is 2.9"), std::string::npos);
}

TEST(ApiAfterTarget, SufficientTargetIsCleanAndRecordsTheFloor) {
  TuResult r = lint_file(lint_fixture("version-api-after-target/clean.cpp"));
  EXPECT_TRUE(r.findings.empty());
  ASSERT_TRUE(r.subject.floor.has_value());
  EXPECT_EQ(r.subject.floor->str(), "2.11");
  EXPECT_FALSE(r.subject.floor_is_baseline);
  EXPECT_EQ(r.subject.floor_set_by, std::vector<std::string>{"torch_dtype_float8_e8m0fnu"});
  EXPECT_NE(r.subject.loads_on.find("lowest TORCH_TARGET_VERSION: 2.11"), std::string::npos);
}

TEST(ApiAfterTarget, StableExtensionFloorIsItsNewestApi) {
  TuResult r = lint_file(lint_fixture("stable_ext/csrc/ops.cpp"), {"-DTORCH_TARGET_VERSION=0x020a000000000000"});
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
  EXPECT_EQ(r.subject.verdict, "STABLE");
  ASSERT_TRUE(r.subject.floor.has_value());
  EXPECT_EQ(r.subject.floor->str(), "2.10");
  EXPECT_EQ(r.subject.floor_set_by, std::vector<std::string>{"torch::stable::reshape"});
}

TEST(BoolMacroFlag, TrueTestedByIfAndFalseTestedByIfdef) {
  TuResult r = lint_file(lint_fixture("source-bool-macro-flag/fires.cpp"));
  EXPECT_EQ(positions(r, "source-bool-macro-flag"), (Positions{{2, 5}, {8, 8}}));
  EXPECT_EQ(find_finding(r, "source-bool-macro-flag", 2)->location.symbol, "WITH_CUDA");
  EXPECT_EQ(find_finding(r, "source-bool-macro-flag", 8)->location.symbol, "USE_OPENMP");
}

TEST(BoolMacroFlag, NumericFlagsAreClean) {
  TuResult r = lint_file(lint_fixture("source-bool-macro-flag/clean.cpp"));
  EXPECT_TRUE(r.findings.empty());
}

TEST(TargetVersionUndefined, UndefAroundAnIncludeNamesTheRegion) {
  TuResult r = lint_file(lint_fixture("source-target-version-undefined/fires.cpp"));
  ASSERT_EQ(positions(r, "source-target-version-undefined"), (Positions{{6, 1}}));
  const findings::Finding& f = r.findings.front();
  EXPECT_NE(f.message.find("line 7 compile"), std::string::npos) << f.message;
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].find("<vector> (line 7)"), std::string::npos) << f.notes[0];
}

TEST(TargetVersionUndefined, DefinedThroughoutIsClean) {
  EXPECT_TRUE(lint_file(lint_fixture("source-target-version-undefined/clean.cpp")).findings.empty());
}

TEST(ShimDeclaration, WrongArityAndWrongReturnType) {
  TuResult r = lint_file(lint_fixture("source-shim-declaration-mismatch/fires.cpp"), {}, false);
  EXPECT_EQ(positions(r, "source-shim-declaration-mismatch"), (Positions{{5, 9}, {6, 9}}));
  EXPECT_NE(find_finding(r, "source-shim-declaration-mismatch", 5)->message.find("takes 1 parameter, the stable ABI's takes 2"),
            std::string::npos);
  EXPECT_NE(find_finding(r, "source-shim-declaration-mismatch", 6)->message.find("returns int64_t"), std::string::npos);
}

TEST(ShimDeclaration, MatchingPrototypesWithTypedefsAreClean) {
  TuResult r = lint_file(lint_fixture("source-shim-declaration-mismatch/clean.cpp"), {}, false);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

TEST(ShimDeclaration, UnderlyingTypesWithoutTheShimTypedefsAreClean) {
  // AOTITorchError is int32_t and AtenTensorHandle AtenTensorOpaque* per the
  // catalog's type rows, though the TU declares neither typedef.
  TuResult r = lint_file(lint_fixture("source-shim-declaration-mismatch/clean_no_typedefs.cpp"), {}, false);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

TEST(UndefinedStableFunction, MethodDeclaredInStructHeaderOnlyIsReportedOnce) {
  const std::string cpp = lint_fixture("source-undefined-stable-function/fires.cpp");
  TuResult r = lint_file(cpp);
  EXPECT_EQ(positions(r, "source-undefined-stable-function", cpp), (Positions{{8, 12}}));
  const auto* f = find_finding(r, "source-undefined-stable-function", 8);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->location.symbol, "torch::stable::Tensor::scalar_type");
  EXPECT_EQ(f->help, "include <torch/csrc/stable/tensor.h>, which includes <torch/csrc/stable/tensor_struct.h> and "
                     "<torch/csrc/stable/tensor_inl.h>");
}

TEST(UndefinedStableFunction, UmbrellaHeaderIsClean) {
  TuResult r = lint_file(lint_fixture("source-undefined-stable-function/clean.cpp"));
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

TEST(ParseIncomplete, MissingHeaderKeepsTokenFindingsAndSaysSo) {
  TuResult r = lint_file(lint_fixture("source-parse-incomplete/fires.cpp"));  // stable headers found, one missing
  ASSERT_EQ(positions(r, "source-parse-incomplete"), (Positions{{2, 10}}));
  EXPECT_EQ(r.findings.front().severity, std::nullopt);  // the rule's default (note) applies
  EXPECT_NE(r.findings.front().notes.at(0).find("file not found"), std::string::npos);
}

TEST(ParseIncomplete, CompleteParseIsClean) {
  EXPECT_TRUE(lint_file(lint_fixture("source-parse-incomplete/clean.cpp")).findings.empty());
}

TEST(TokenLevel, QualifiedNamesAndMacrosAreFoundWithoutTheirHeaders) {
  // No libtorch on the include path: at:: names and TORCH_CHECK come from the tokens.
  const std::string dir = ::testing::TempDir();
  const std::string cpp = dir + "/token_level.cpp";
  std::ofstream(cpp) << "#include <torch/not_installed.h>\n"
                        "at::Tensor f(at::Tensor x) {\n"
                        "  TORCH_CHECK(x.dim() == 2);\n"
                        "#if 0\n"
                        "  c10::kFloat;\n"
                        "#endif\n"
                        "  return x;\n"
                        "}\n";
  TuResult r = lint_file(cpp, {}, false);
  EXPECT_EQ(positions(r, "source-unstable-include"), (Positions{{1, 1}}));
  // x.dim(): x was declared at::Tensor in the tokens of the declaration clang dropped (template_use_check.cpp).
  EXPECT_EQ(positions(r, "source-unstable-api"), (Positions{{2, 1}, {2, 14}, {3, 15}}));
  EXPECT_EQ(positions(r, "source-unstable-macro"), (Positions{{3, 3}}));
  EXPECT_EQ(positions(r, "source-parse-incomplete").size(), 1u);
}

TEST(CudaHost, KernelFileIsParsedWithoutAUsableCudaInstallation) {
  // --cuda-path to nowhere: the CUDA keywords are defined away, the file still parses.
  const std::string dir = ::testing::TempDir();
  const std::string cu = dir + "/kernel.cu";
  std::ofstream(cu) << "#include <torch/csrc/stable/tensor.h>\n"
                       "__global__ void k(float* p) { p[0] = 1.0f; }\n"
                       "int64_t rank(const torch::stable::Tensor& t) { return t.dim(); }\n";
  TuResult r = lint_file(cu, {"--cuda-path=/nonexistent"});
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  const findings::Finding* note = find_finding(r, "source-parse-incomplete", 0);
  ASSERT_NE(note, nullptr);
  bool mentions_cuda = false;
  for (const auto& n : note->notes) mentions_cuda |= n.find("CUDA") != std::string::npos;
  EXPECT_TRUE(mentions_cuda);
  EXPECT_EQ(r.subject.verdict, "STABLE");
}

}  // namespace
}  // namespace torchabi::source::test
