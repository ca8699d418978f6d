// The conditional structure of headers as FeatureGuards models it: for each
// line, the TORCH_FEATURE_VERSION values for which it is compiled. Small
// texts here; tests/unit/source/version_real_headers_test.cpp reads PyTorch's.
#include <gtest/gtest.h>

#include "analyzers/source/feature_guards.h"
#include "analyzers/source/version_expr.h"

namespace torchabi::source {
namespace {

constexpr uint64_t v(int major, int minor) { return (uint64_t(major) << 56) | (uint64_t(minor) << 48); }

std::string at(const FeatureGuards& g, unsigned line) { return g.compiled_at(line).str(); }

TEST(VersionSet, AlgebraAndText) {
  const VersionSet ge10 = VersionSet::at_least(v(2, 10)), lt12 = VersionSet::below(v(2, 12));
  EXPECT_EQ((ge10 & lt12).str(), ">= 2.10 and < 2.12");
  EXPECT_EQ((ge10 | lt12).str(), "any");
  EXPECT_TRUE((ge10 | lt12).is_all());
  EXPECT_EQ(ge10.complement().str(), "< 2.10");
  EXPECT_EQ((ge10 & lt12).complement().str(), "< 2.10 or >= 2.12");
  EXPECT_TRUE((ge10 & ge10.complement()).empty());
  EXPECT_EQ(VersionSet::compare(">", v(2, 10))->str(), "> 2.10");
  EXPECT_EQ(VersionSet::compare("<=", v(2, 10))->str(), "<= 2.10");
  EXPECT_TRUE(VersionSet::compare("<=", v(2, 10))->contains(v(2, 10)));
  EXPECT_FALSE(VersionSet::compare(">", v(2, 10))->contains(v(2, 10)));
  EXPECT_EQ(VersionSet::compare("==", v(2, 11))->str(), ">= 2.11 and <= 2.11");
  EXPECT_EQ(VersionSet::compare("!=", v(2, 11))->complement(), *VersionSet::compare("==", v(2, 11)));
  EXPECT_EQ((ge10 & lt12).lowest(), v(2, 10));
  EXPECT_EQ(lt12.lowest(), 0u);
  EXPECT_EQ(VersionSet::none().lowest(), std::nullopt);
}

TEST(FeatureCondition, ComparisonsInEitherOrderAndLogic) {
  auto when = [](std::string_view c) { return evaluate_feature_condition(c).when_true.str(); };
  auto unless = [](std::string_view c) { return evaluate_feature_condition(c).when_false.str(); };
  EXPECT_EQ(when("TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0"), ">= 2.10");
  EXPECT_EQ(unless("TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0"), "< 2.10");
  EXPECT_EQ(when("TORCH_FEATURE_VERSION < (((0ULL + 2) << 56) | ((0ULL + 11) << 48))"), "< 2.11");
  EXPECT_EQ(when("TORCH_VERSION_2_12_0 <= TORCH_FEATURE_VERSION"), ">= 2.12");
  EXPECT_EQ(when("(TORCH_FEATURE_VERSION) > 0x020a000000000000ULL"), "> 2.10");
  EXPECT_EQ(when("!(TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0)"), "< 2.10");
  EXPECT_EQ(when("TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 && TORCH_FEATURE_VERSION < TORCH_VERSION_2_12_0"),
            ">= 2.10 and < 2.12");
  EXPECT_EQ(unless("TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 && TORCH_FEATURE_VERSION < TORCH_VERSION_2_12_0"),
            "< 2.10 or >= 2.12");
  EXPECT_EQ(when("TORCH_FEATURE_VERSION < TORCH_VERSION_2_10_0 || TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0"),
            "< 2.10 or >= 2.13");
  // Anything else can go either way: it narrows nothing, and its negation neither.
  EXPECT_EQ(when("defined(USE_CUDA) && TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0"), ">= 2.10");
  EXPECT_EQ(unless("defined(USE_CUDA) && TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0"), "any");
  EXPECT_EQ(when("defined USE_CUDA || TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0"), "any");
  EXPECT_EQ(when("__cplusplus >= 201703L"), "any");
  EXPECT_FALSE(evaluate_feature_condition("__cplusplus >= 201703L").tests_feature_version);
  EXPECT_TRUE(evaluate_feature_condition("!(TORCH_FEATURE_VERSION < TORCH_VERSION_2_10_0)").tests_feature_version);
  EXPECT_EQ(when("C10_CLANG_HAS_WARNING(\"-Wshorten-64-to-32\")"), "any");
  EXPECT_EQ(when("0"), "none");
  EXPECT_EQ(unless("0"), "any");
  // Unreadable: either way.
  EXPECT_EQ(when("TORCH_FEATURE_VERSION >= (2 << 56"), "any");
  EXPECT_EQ(unless("TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 ? 1 : 0"), "any");
}

TEST(FeatureGuards, NestingElseElifAndUpperBounds) {
  const char* header =
      "void base();\n"                                                              // 1
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"                         // 2
      "void ten();\n"                                                               // 3
      "#  ifdef USE_CUDA\n"                                                         // 4
      "void ten_cuda();\n"                                                          // 5
      "#    if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0\n"                     // 6
      "void twelve_cuda();\n"                                                       // 7
      "#    endif\n"                                                                // 8
      "#  else\n"                                                                   // 9
      "void ten_no_cuda();\n"                                                       // 10
      "#  endif\n"                                                                  // 11
      "#else\n"                                                                     // 12
      "void before_ten();\n"                                                        // 13
      "#endif\n"                                                                    // 14
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0\n"                         // 15
      "void thirteen();\n"                                                          // 16
      "#elif TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0\n"                       // 17
      "void eleven_twelve();\n"                                                     // 18
      "#elif defined(OTHER)\n"                                                      // 19
      "void other_before_eleven();\n"                                               // 20
      "#else\n"                                                                     // 21
      "void before_eleven();\n"                                                     // 22
      "#endif\n"                                                                    // 23
      "#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_10_0\n"                          // 24
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0\n"                         // 25
      "void never();\n"                                                             // 26
      "#endif\n"                                                                    // 27
      "#endif\n"                                                                    // 28
      "void after();\n";                                                            // 29
  FeatureGuards g = FeatureGuards::scan(header);
  EXPECT_TRUE(g.has_version_guards());
  EXPECT_FALSE(g.defines_feature_version());
  EXPECT_EQ(at(g, 1), "any");
  EXPECT_EQ(at(g, 3), ">= 2.10");
  EXPECT_EQ(at(g, 5), ">= 2.10");
  EXPECT_EQ(at(g, 7), ">= 2.12");
  EXPECT_EQ(at(g, 10), ">= 2.10");  // the #else of #ifdef: still inside >= 2.10
  EXPECT_EQ(at(g, 13), "< 2.10");   // the #else of >= 2.10
  EXPECT_EQ(at(g, 16), ">= 2.13");
  EXPECT_EQ(at(g, 18), ">= 2.11 and < 2.13");
  EXPECT_EQ(at(g, 20), "< 2.11");
  EXPECT_EQ(at(g, 22), "< 2.11");
  EXPECT_EQ(at(g, 26), "none");
  EXPECT_EQ(at(g, 29), "any");
  EXPECT_EQ(g.required_at(1), std::nullopt);
  EXPECT_EQ(g.required_at(7), (TorchVersion{2, 12, 0}));
  EXPECT_EQ(g.required_at(18), (TorchVersion{2, 11, 0}));
  EXPECT_EQ(g.required_at(13), std::nullopt);  // only an upper bound
  EXPECT_EQ(g.required_at(26), std::nullopt);  // never compiled
}

TEST(FeatureGuards, CommentsContinuationsAndTheMechanism) {
  const char* header =
      "#ifdef TORCH_TARGET_VERSION\n"                                       // 1
      "#define TORCH_FEATURE_VERSION TORCH_TARGET_VERSION\n"                // 2
      "#endif\n"                                                            // 3
      "/* a comment that mentions\n"                                        // 4
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"                 // 5
      "*/\n"                                                                // 6
      "void not_guarded();\n"                                               // 7
      "#if TORCH_FEATURE_VERSION >= \\\n"                                   // 8
      "    TORCH_VERSION_2_11_0 // the line goes on\n"                      // 9
      "void eleven();\n"                                                    // 10
      "#endif // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0\n"           // 11
      "  #  if /* inline */ TORCH_FEATURE_VERSION < TORCH_VERSION_2_10_0\n"  // 12
      "void before_ten();\n"                                                // 13
      "  #  endif\n"                                                        // 14
      "const char* s = \"#if 0 /* not a comment\";\n"                       // 15
      "void after();\n";                                                    // 16
  FeatureGuards g = FeatureGuards::scan(header);
  EXPECT_TRUE(g.defines_feature_version());
  EXPECT_EQ(at(g, 7), "any");
  EXPECT_EQ(at(g, 10), ">= 2.11");
  EXPECT_EQ(at(g, 13), "< 2.10");
  EXPECT_EQ(at(g, 16), "any");
  EXPECT_EQ(g.distinct_sets().size(), 3u);
}

TEST(FeatureGuards, UnbalancedDirectivesDoNotThrowOffTheRest) {
  FeatureGuards g = FeatureGuards::scan(
      "#endif\n"
      "#else\n"
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"
      "void ten();\n");
  EXPECT_EQ(at(g, 4), ">= 2.10");
  EXPECT_FALSE(FeatureGuards::scan("void f();\n").has_version_guards());
  EXPECT_EQ(at(FeatureGuards::scan(""), 1), "any");
}

}  // namespace
}  // namespace torchabi::source
