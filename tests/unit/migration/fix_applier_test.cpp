#include <gtest/gtest.h>

#include "analyzers/migration/directive_scanner.h"
#include "analyzers/migration/fix_applier.h"
#include "test_files.h"

using namespace torchabi::migration;
using torchabi::findings::FixIt;
using torchabi::findings::FixSafety;
using namespace torchabi::migration::testing;

namespace {

FixIt fix_of(const std::string& file, const std::string& text, const std::string& what, const std::string& with,
              FixSafety safety = FixSafety::Safe, size_t nth = 0) {
  size_t at = text.find(what);
  for (size_t i = 0; i < nth; ++i) at = text.find(what, at + 1);
  EXPECT_NE(at, std::string::npos) << what;
  return {file, uint32_t(at), uint32_t(at + what.size()), with, safety, "replace " + what, {}, {}};
}

}  // namespace

TEST(FixApplier, AppliesNonOverlappingEditsAtTheirExactRanges) {
  const std::string text = "at::Tensor f(at::Tensor x) {\n  TORCH_CHECK(x.dim() == 1);\n  return x;\n}\n";
  auto path = put_file(scratch_dir(), "a.cpp", text);
  FixApplier a;
  a.add(fix_of(path, text, "TORCH_CHECK", "STD_TORCH_CHECK"));
  a.add(fix_of(path, text, "at::Tensor", "torch::stable::Tensor", FixSafety::Safe, 1));
  a.add(fix_of(path, text, "at::Tensor", "torch::stable::Tensor"));
  auto plan = a.plan();
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_TRUE(plan.rejected.empty());
  EXPECT_EQ(plan.files[0].after,
            "torch::stable::Tensor f(torch::stable::Tensor x) {\n  STD_TORCH_CHECK(x.dim() == 1);\n  return x;\n}\n");
  EXPECT_EQ(plan.applied_count(), 3u);
  EXPECT_EQ(slurp(path), text) << "plan() must not write";
  write_rewrites(plan);
  EXPECT_EQ(slurp(path), plan.files[0].after);
}

TEST(FixApplier, RefusesTheLaterOfTwoOverlappingEdits) {
  const std::string text = "x.add(y).mul(z);\n";
  auto path = put_file(scratch_dir(), "a.cpp", text);
  FixApplier a;
  a.add(fix_of(path, text, "x.add(y)", "torch::stable::add(x, y)"));
  a.add(fix_of(path, text, "x.add(y).mul(z)", "torch::stable::mul(x.add(y), z)"));
  auto plan = a.plan();
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_EQ(plan.rejected[0].fix.replacement, "torch::stable::mul(x.add(y), z)");
  EXPECT_NE(plan.rejected[0].reason.find("overlaps"), std::string::npos);
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after, "torch::stable::add(x, y).mul(z);\n");
}

TEST(FixApplier, TwoInsertionsAtOnePointConflictButAdjacentEditsDoNot) {
  const std::string text = "abcdef\n";
  auto path = put_file(scratch_dir(), "a.cpp", text);
  FixApplier a;
  a.add({path, 3, 3, "X", FixSafety::Safe, "", {}, {}});
  a.add({path, 3, 3, "Y", FixSafety::Safe, "", {}, {}});
  a.add({path, 0, 3, "ABC", FixSafety::Safe, "", {}, {}});
  a.add({path, 3, 6, "DEF", FixSafety::Safe, "", {}, {}});
  auto plan = a.plan();
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_EQ(plan.rejected[0].fix.replacement, "Y");
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after, "ABCXDEF\n");
}

TEST(FixApplier, TheSameEditReportedTwiceIsAppliedOnce) {
  const std::string text = "TORCH_CHECK(ok);\n";
  auto path = put_file(scratch_dir(), "h.h", text);
  FixApplier a;
  a.add(fix_of(path, text, "TORCH_CHECK", "STD_TORCH_CHECK"));
  a.add(fix_of(path, text, "TORCH_CHECK", "STD_TORCH_CHECK"));
  auto plan = a.plan();
  EXPECT_TRUE(plan.rejected.empty());
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after, "STD_TORCH_CHECK(ok);\n");
}

TEST(FixApplier, NeverEditsInsideAHeadersMacroDefinition) {
  const std::string text = "#define MY_CHECK(c) \\\n  TORCH_CHECK(c, \"x\")\nvoid f() { TORCH_CHECK(true); }\n";
  auto path = put_file(scratch_dir(), "a.h", text);
  FixApplier a;
  a.add(fix_of(path, text, "TORCH_CHECK", "STD_TORCH_CHECK", FixSafety::Safe, 0));
  a.add(fix_of(path, text, "TORCH_CHECK", "STD_TORCH_CHECK", FixSafety::Safe, 1));
  auto plan = a.plan();
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_NE(plan.rejected[0].reason.find("macro definition (line 1)"), std::string::npos) << plan.rejected[0].reason;
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after,
            "#define MY_CHECK(c) \\\n  TORCH_CHECK(c, \"x\")\nvoid f() { STD_TORCH_CHECK(true); }\n");
}

// A source file's own macros expand only in its translation unit, which --fix
// compiles after the edits: the definition is edited like any other line.
TEST(FixApplier, EditsTheMacroDefinitionsOfASourceFile) {
  const std::string text = "#define MY_CHECK(c) \\\n  TORCH_CHECK(c, \"x\")\nvoid f() { MY_CHECK(true); }\n";
  auto path = put_file(scratch_dir(), "a.cu", text);
  FixApplier a;
  a.add(fix_of(path, text, "TORCH_CHECK", "STD_TORCH_CHECK"));
  a.add(fix_of(path, text, "TORCH_CHECK", "STD_TORCH_CHECK"));  // reported at each expansion
  auto plan = a.plan();
  EXPECT_TRUE(plan.rejected.empty());
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after, "#define MY_CHECK(c) \\\n  STD_TORCH_CHECK(c, \"x\")\nvoid f() { MY_CHECK(true); }\n");
  EXPECT_TRUE(macro_definitions_editable("src/ext.cpp"));
  EXPECT_TRUE(macro_definitions_editable("kernels/k.cu"));
  EXPECT_FALSE(macro_definitions_editable("include/ext.h"));
  EXPECT_FALSE(macro_definitions_editable("include/ext.cuh"));
  EXPECT_FALSE(macro_definitions_editable("dir.cpp/README"));
}

TEST(FixApplier, NeverEditsARangeTheFrontEndProtected) {
  const std::string text = "#if 0\nat::Tensor old;\n#endif\nat::Tensor now;\n";
  auto path = put_file(scratch_dir(), "a.cpp", text);
  FixApplier a;
  a.protect(path, {{6, 22}, "an inactive #if branch"});
  a.add(fix_of(path, text, "at::Tensor", "torch::stable::Tensor", FixSafety::Safe, 0));
  a.add(fix_of(path, text, "at::Tensor", "torch::stable::Tensor", FixSafety::Safe, 1));
  auto plan = a.plan();
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_NE(plan.rejected[0].reason.find("inactive #if branch (line 2)"), std::string::npos);
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after, "#if 0\nat::Tensor old;\n#endif\ntorch::stable::Tensor now;\n");
}

TEST(FixApplier, UnsafeFixesNeedTheFlag) {
  const std::string text = "x.sum();\n";
  auto path = put_file(scratch_dir(), "a.cpp", text);
  FixIt f = fix_of(path, text, "x.sum()", "torch::stable::sum(x)", FixSafety::Unsafe);
  FixApplier safe_only;
  safe_only.add(f);
  auto p1 = safe_only.plan();
  EXPECT_TRUE(p1.files.empty());
  ASSERT_EQ(p1.rejected.size(), 1u);
  EXPECT_NE(p1.rejected[0].reason.find("--unsafe-fixes"), std::string::npos);
  FixApplier with_unsafe(true);
  with_unsafe.add(f);
  auto p2 = with_unsafe.plan();
  ASSERT_EQ(p2.files.size(), 1u);
  EXPECT_EQ(p2.files[0].after, "torch::stable::sum(x);\n");
}

TEST(FixApplier, AStaleRangeIsRefusedNotGuessed) {
  auto path = put_file(scratch_dir(), "a.cpp", "short\n");
  FixApplier a;
  a.add({path, 2, 40, "x", FixSafety::Safe, "", {}, {}});
  auto plan = a.plan();
  EXPECT_TRUE(plan.files.empty());
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_NE(plan.rejected[0].reason.find("outside the file"), std::string::npos);
}

TEST(FixApplier, AnUnreadableFileRejectsItsFixes) {
  FixApplier a;
  a.add({scratch_dir() + "/missing.cpp", 0, 1, "x", FixSafety::Safe, "", {}, {}});
  auto plan = a.plan();
  EXPECT_TRUE(plan.files.empty());
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_NE(plan.rejected[0].reason.find("cannot read"), std::string::npos);
}

TEST(FixApplier, ASecondRunWithTheSameFixesChangesNothing) {
  const std::string text = "TORCH_CHECK(a);\n";
  auto path = put_file(scratch_dir(), "a.cpp", text);
  FixIt f = fix_of(path, text, "TORCH_CHECK", "TORCH_CHECK");  // already in place
  FixApplier a;
  a.add(f);
  auto plan = a.plan();
  EXPECT_TRUE(plan.files.empty());
  EXPECT_TRUE(plan.rejected.empty());
  EXPECT_EQ(plan.already_applied, 1u);
}

TEST(FixApplier, OneFileNamedTwoWaysIsRewrittenOnce) {
  auto dir = scratch_dir();
  const std::string text = "aaa bbb\n";
  auto path = put_file(dir, "sub/a.cpp", text);
  FixApplier a;
  a.add({path, 0, 3, "AAA", FixSafety::Safe, "", {}, {}});
  a.add({dir + "/sub/../sub/a.cpp", 4, 7, "BBB", FixSafety::Safe, "", {}, {}});
  auto plan = a.plan();
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after, "AAA BBB\n");
}
