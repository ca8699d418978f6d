#include <gtest/gtest.h>

#include "analyzers/migration/plan_builder.h"
#include "analyzers/migration/work_order.h"
#include "test_files.h"

using namespace torchabi::migration;
using namespace torchabi::migration::testing;
using torchabi::TorchVersion;

namespace {

const BlockerCatalog& blockers() {
  static BlockerCatalog c = BlockerCatalog::from_yaml(R"(
blockers:
  - {id: torchbind, title: TorchBind custom classes, apis: [torch::class_], workaround: keep it in Python}
)", "test.yaml");
  return c;
}

ApiUse use(std::string api, std::string file, uint32_t line, Disposition d, std::string repl = "",
           std::optional<TorchVersion> since = {}, std::string blocker = "") {
  ApiUse u;
  u.api = std::move(api);
  u.replacement = std::move(repl);
  u.since = since;
  u.disposition = d;
  u.blocker = std::move(blocker);
  u.location.file = std::move(file);
  u.location.line = line;
  u.location.column = 1;
  return u;
}

Counts counts(size_t f, size_t u, size_t m, size_t b) {
  Counts c;
  c.fixable = f;
  c.fixable_unsafe = u;
  c.manual = m;
  c.blocked = b;
  return c;
}

}  // namespace

TEST(PlanBuilder, GroupsPerApiMostUsedFirstAndCounts) {
  PlanInputs in;
  in.baseline = {2, 9, 0};
  in.uses = {
      use("at::Tensor", "a.cpp", 3, Disposition::Fixable, "torch::stable::Tensor", TorchVersion{2, 9, 0}),
      use("at::Tensor", "a.cpp", 5, Disposition::Fixable, "torch::stable::Tensor", TorchVersion{2, 9, 0}),
      use("at::Tensor", "b.cpp", 1, Disposition::Fixable, "torch::stable::Tensor", TorchVersion{2, 9, 0}),
      use("at::Tensor", "b.cpp", 1, Disposition::Fixable, "torch::stable::Tensor", TorchVersion{2, 9, 0}),  // duplicate
      use("at::Tensor::narrow", "b.cpp", 7, Disposition::FixableUnsafe, "torch::stable::narrow", TorchVersion{2, 10, 0}),
      use("AT_DISPATCH_FLOATING_TYPES", "a.cpp", 9, Disposition::Manual, "THO_DISPATCH_V2", TorchVersion{2, 10, 0}),
      use("torch::class_", "c.cpp", 4, Disposition::Blocked, "", {}, "torchbind"),
      use("at::TensorIterator", "c.cpp", 8, Disposition::Blocked),
  };
  auto plan = build_plan(in, blockers());
  EXPECT_EQ(plan.summary.total(), 7u);
  EXPECT_EQ(plan.summary.fixable, 3u);
  EXPECT_EQ(plan.summary.fixable_unsafe, 1u);
  EXPECT_EQ(plan.summary.manual, 1u);
  EXPECT_EQ(plan.summary.blocked, 2u);

  ASSERT_EQ(plan.apis.size(), 5u);
  EXPECT_EQ(plan.apis[0].api, "at::Tensor");
  EXPECT_EQ(plan.apis[0].counts.total(), 3u);
  EXPECT_EQ(plan.apis[0].files, (std::vector<std::string>{"a.cpp", "b.cpp"}));
  EXPECT_EQ(plan.apis[0].uses.front().line, 3u);

  ASSERT_EQ(plan.blockers.size(), 2u);
  const auto& tb = plan.blockers[0].id == "torchbind" ? plan.blockers[0] : plan.blockers[1];
  EXPECT_EQ(tb.title, "TorchBind custom classes");
  EXPECT_EQ(tb.workaround, "keep it in Python");
  EXPECT_EQ(tb.apis, std::vector<std::string>{"torch::class_"});

  // 2.10 is the newest release among the replacements used, blocked ones aside.
  ASSERT_TRUE(plan.target);
  EXPECT_EQ(plan.target->str(), "2.10");
  EXPECT_FALSE(plan.target_is_baseline);
  EXPECT_EQ(plan.target_set_by, (std::vector<std::string>{"THO_DISPATCH_V2", "torch::stable::narrow"}));

  ASSERT_EQ(plan.files.size(), 3u);
  EXPECT_EQ(plan.files[0].path, "a.cpp");
  EXPECT_EQ(plan.files[0].counts.total(), 3u);
}

TEST(PlanBuilder, TargetFallsBackToTheBaseline) {
  PlanInputs in;
  in.baseline = {2, 9, 0};
  in.uses = {use("TORCH_CHECK", "a.cpp", 1, Disposition::Fixable, "STD_TORCH_CHECK", TorchVersion{2, 8, 0})};
  auto plan = build_plan(in, blockers());
  ASSERT_TRUE(plan.target);
  EXPECT_EQ(plan.target->str(), "2.9");
  EXPECT_TRUE(plan.target_is_baseline);
}

TEST(WorkOrder, AHeaderWithWorkJoinsItsIncludersEvenThroughCleanHeaders) {
  IncludeGraph g = {
      {"/p/a.cpp", {"/p/clean.h"}},
      {"/p/clean.h", {"/p/ops.h"}},
      {"/p/b.cpp", {"/p/ops.h"}},
      {"/p/ops.h", {}},
      {"/p/solo.cpp", {"/p/clean.h2"}},
      {"/p/blocked.cpp", {}},
  };
  std::map<std::string, Counts> work = {
      {"/p/a.cpp", counts(2, 0, 0, 0)},   {"/p/b.cpp", counts(1, 0, 1, 0)}, {"/p/ops.h", counts(1, 0, 0, 0)},
      {"/p/solo.cpp", counts(1, 0, 0, 0)}, {"/p/blocked.cpp", counts(0, 0, 0, 1)},
  };
  auto groups = order_work(work, g);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].files, std::vector<std::string>{"/p/solo.cpp"});
  EXPECT_EQ(groups[1].files, (std::vector<std::string>{"/p/ops.h", "/p/a.cpp", "/p/b.cpp"}));
  EXPECT_EQ(groups[1].counts.total(), 5u);
  EXPECT_EQ(groups[1].why, "/p/ops.h is included by /p/a.cpp, /p/b.cpp");
  EXPECT_EQ(groups[2].files, std::vector<std::string>{"/p/blocked.cpp"}) << "blocked work goes last";
}

TEST(WorkOrder, MutuallyIncludingHeadersDoNotLoop) {
  IncludeGraph g = {{"/p/a.h", {"/p/b.h"}}, {"/p/b.h", {"/p/a.h"}}};
  auto groups = order_work({{"/p/a.h", counts(1, 0, 0, 0)}, {"/p/b.h", counts(1, 0, 0, 0)}}, g);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].files.size(), 2u);
}

TEST(IncludeGraph, FollowsQuotedIncludesInsideTheProjectOnly) {
  auto dir = scratch_dir();
  auto a = put_file(dir, "src/a.cpp", "#include \"ops.h\"\n#include <torch/extension.h>\n#include <proj/util.h>\n");
  put_file(dir, "src/ops.h", "#pragma once\n#include \"../include/proj/util.h\"\n");
  put_file(dir, "include/proj/util.h", "#pragma once\n");
  IncludeScanOptions opts;
  opts.include_dirs = {dir + "/include"};
  opts.is_project = [&](const std::string& p) { return p.rfind(dir, 0) == 0; };
  auto g = scan_include_graph({a}, opts);
  const std::string na = normal_path(a), ops = normal_path(dir + "/src/ops.h"),
                    util = normal_path(dir + "/include/proj/util.h");
  ASSERT_TRUE(g.count(na));
  EXPECT_EQ(g[na], (std::vector<std::string>{ops, util}));
  EXPECT_EQ(g[ops], std::vector<std::string>{util});
  EXPECT_TRUE(g[util].empty());
}
