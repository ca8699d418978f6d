// Fix-its that nest: a rewrite inside the text another rewrite copies
// (FixIt::kept) is applied to the copy, by fold_nested_fixes and through the
// applier; one outside any copy is still refused as an overlap.
#include <gtest/gtest.h>

#include "analyzers/migration/fix_applier.h"
#include "analyzers/migration/fix_nesting.h"
#include "findings/replacement_builder.h"
#include "test_files.h"

using namespace torchabi::migration;
using namespace torchabi::migration::testing;
using torchabi::findings::FixIt;
using torchabi::findings::FixSafety;
using torchabi::findings::ReplacementBuilder;

namespace {

uint32_t at(const std::string& text, const std::string& what, size_t nth = 0) {
  size_t p = text.find(what);
  for (size_t i = 0; i < nth; ++i) p = text.find(what, p + 1);
  EXPECT_NE(p, std::string::npos) << what;
  return uint32_t(p);
}

FixIt plain(const std::string& file, const std::string& text, const std::string& what, const std::string& with) {
  const uint32_t b = at(text, what);
  return {file, b, uint32_t(b + what.size()), with, FixSafety::Safe, "replace " + what, {}, {}};
}

// AT_DISPATCH(t, "n", LAMBDA) -> V2(t, "n", WRAP(LAMBDA)), the lambda a copy.
FixIt dispatch(const std::string& file, const std::string& text) {
  const uint32_t b = at(text, "AT_DISPATCH"), lambda = at(text, "[&]"), end = uint32_t(text.rfind(')') + 1);
  ReplacementBuilder r(text);
  r.text("V2(t, \"n\", WRAP(").copy(lambda, end - 1).text("))");
  return r.fix(file, b, end, true, "dispatch");
}

}  // namespace

TEST(ReplacementBuilder, RecordsWhereEachCopyLands) {
  const std::string text = "x.contiguous()";
  ReplacementBuilder r(text);
  r.text("torch::stable::contiguous(").copy(0, 1).text(")");
  const FixIt f = r.fix("a.cpp", 0, uint32_t(text.size()), true, "d");
  EXPECT_EQ(f.replacement, "torch::stable::contiguous(x)");
  ASSERT_EQ(f.kept.size(), 1u);
  EXPECT_EQ(f.kept[0].begin_offset, 0u);
  EXPECT_EQ(f.kept[0].end_offset, 1u);
  EXPECT_EQ(f.kept[0].at, 26u);
  ReplacementBuilder bad(text);
  bad.copy(3, 99);
  EXPECT_FALSE(bad.ok());
}

TEST(FixNesting, RewritesInsideACopyGoIntoIt) {
  const std::string text = "AT_DISPATCH(t, \"n\", [&] { f(x.data_ptr<T>(), y.data_ptr<T>()); })";
  const std::vector<FixIt> fixes = {dispatch("a.cpp", text), plain("a.cpp", text, "x.data_ptr<T>()", "X"),
                                    plain("a.cpp", text, "y.data_ptr<T>()", "Y")};
  const NestingResult r = fold_nested_fixes(fixes, text);
  ASSERT_EQ(r.top.size(), 1u);
  EXPECT_TRUE(r.refused.empty());
  EXPECT_EQ(r.top[0].fix.replacement, "V2(t, \"n\", WRAP([&] { f(X, Y); }))");
  EXPECT_EQ(r.top[0].absorbed.size(), 2u);
}

TEST(FixNesting, CopiesNestTwoLevelsDeep) {
  // torch::stable::contiguous(<receiver>) whose receiver holds a rename.
  const std::string text = "at::empty_like(a).contiguous()";
  ReplacementBuilder outer(text);
  outer.text("contiguous(").copy(0, at(text, ".contiguous")).text(")");
  ReplacementBuilder middle(text);
  middle.text("empty_like(").copy(at(text, "a)"), at(text, "a)") + 1).text(")");
  const std::vector<FixIt> fixes = {
      outer.fix("a.cpp", 0, uint32_t(text.size()), true, "outer"),
      middle.fix("a.cpp", 0, at(text, ".contiguous"), true, "middle"),
      FixIt{"a.cpp", at(text, "a)"), at(text, "a)") + 1, "b", FixSafety::Safe, "rename a", {}, {}},
  };
  const NestingResult r = fold_nested_fixes(fixes, text);
  ASSERT_EQ(r.top.size(), 1u);
  EXPECT_EQ(r.top[0].fix.replacement, "contiguous(empty_like(b))");
  EXPECT_EQ(r.top[0].absorbed.size(), 2u);
}

TEST(FixNesting, SiblingsThatCollideInsideACopyAreRefused) {
  const std::string text = "AT_DISPATCH(t, \"n\", [&] { g(x.y()); })";
  const std::vector<FixIt> fixes = {dispatch("a.cpp", text), plain("a.cpp", text, "x.y()", "A"),
                                    plain("a.cpp", text, "x.y", "B")};
  const NestingResult r = fold_nested_fixes(fixes, text);
  ASSERT_EQ(r.top.size(), 1u);
  ASSERT_EQ(r.refused.size(), 1u);
  EXPECT_EQ(r.top[0].absorbed.size(), 1u);
}

TEST(FixNesting, AFixWithoutCopiesHoldsNothing) {
  const std::string text = "x.add(y).mul(z)";
  const std::vector<FixIt> fixes = {plain("a.cpp", text, "x.add(y).mul(z)", "M"), plain("a.cpp", text, "x.add(y)", "A")};
  const NestingResult r = fold_nested_fixes(fixes, text);
  EXPECT_EQ(r.top.size(), 2u);
  EXPECT_TRUE(r.refused.empty());
}

TEST(FixApplier, ARewriteInsideAKeptArgumentIsAppliedWithTheOuterOne) {
  const std::string text = "void k() {\n  AT_DISPATCH(t, \"n\", [&] { float* p = x.data_ptr<float>(); });\n}\n";
  auto path = put_file(scratch_dir(), "a.cpp", text);
  FixApplier a;
  a.add(plain(path, text, "x.data_ptr<float>()", "static_cast<float*>(x.data_ptr())"));
  a.add(dispatch(path, text.substr(0, text.rfind(')') + 1)));  // offsets are those of `text`
  auto plan = a.plan();
  EXPECT_TRUE(plan.rejected.empty()) << plan.rejected[0].reason;
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after,
            "void k() {\n  V2(t, \"n\", WRAP([&] { float* p = static_cast<float*>(x.data_ptr()); }));\n}\n");
  EXPECT_EQ(plan.applied_count(), 2u);  // both fix-its went in
  EXPECT_EQ(plan.files[0].edits.size(), 1u);  // as one edit
}
