// Version expressions as PyTorch and users write them, and the
// TORCH_FEATURE_VERSION guards around declarations in headers.
#include <gtest/gtest.h>

#include "analyzers/source/feature_guards.h"
#include "analyzers/source/version_expr.h"

namespace torchabi::source {
namespace {

TEST(VersionExpr, EveryWrittenForm) {
  EXPECT_EQ(evaluate_version_expr("0x020a000000000000"), 0x020a000000000000ull);
  EXPECT_EQ(evaluate_version_expr("0x020a000000000000ULL"), 0x020a000000000000ull);
  EXPECT_EQ(evaluate_version_expr("(((0ULL + 2) << 56) | ((0ULL + 10) << 48))"), 0x020a000000000000ull);
  EXPECT_EQ(evaluate_version_expr("((uint64_t)2 << 56 | (uint64_t)9 << 48)"), 0x0209000000000000ull);
  EXPECT_EQ(evaluate_version_expr("TORCH_VERSION_2_11_0"), 0x020b000000000000ull);
  EXPECT_EQ(evaluate_version_expr("145522562959409152"), 0x0205000000000000ull);
}

TEST(VersionExpr, AnythingElseIsRejected) {
  EXPECT_EQ(evaluate_version_expr("SOME_MACRO"), std::nullopt);
  EXPECT_EQ(evaluate_version_expr("(2 << 56"), std::nullopt);
  EXPECT_EQ(evaluate_version_expr("2 << 99"), std::nullopt);
  EXPECT_EQ(evaluate_version_expr("1 || 2"), std::nullopt);
}

TEST(FeatureGuards, NestedElseAndLessThanGuards) {
  const char* header =
      "void base();\n"                                                  // 1
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"             // 2
      "void ten();\n"                                                   // 3
      "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0\n"             // 4
      "void twelve();\n"                                                // 5
      "#endif\n"                                                        // 6
      "#else\n"                                                         // 7
      "void old_overload();\n"                                          // 8
      "#endif\n"                                                        // 9
      "#if TORCH_FEATURE_VERSION < (((0ULL + 2) << 56) | ((0ULL + 11) << 48))\n"  // 10
      "void before_eleven();\n"                                         // 11
      "#else\n"                                                         // 12
      "void since_eleven();\n"                                          // 13
      "#endif\n"                                                        // 14
      "#ifdef SOMETHING\n"                                              // 15
      "void unrelated();\n"                                             // 16
      "#endif\n";                                                       // 17
  FeatureGuards g = FeatureGuards::scan(header);
  EXPECT_EQ(g.required_at(1), std::nullopt);
  EXPECT_EQ(g.required_at(3), (TorchVersion{2, 10, 0}));
  EXPECT_EQ(g.required_at(5), (TorchVersion{2, 12, 0}));
  EXPECT_EQ(g.required_at(8), std::nullopt);
  EXPECT_EQ(g.required_at(11), std::nullopt);
  EXPECT_EQ(g.required_at(13), (TorchVersion{2, 11, 0}));
  EXPECT_EQ(g.required_at(16), std::nullopt);
}

}  // namespace
}  // namespace torchabi::source
