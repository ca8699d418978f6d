#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analyzers/migration/plan_builder.h"
#include "reporters/migration_reporter.h"

using namespace torchabi::migration;
using namespace torchabi::reporters;
using torchabi::TorchVersion;

namespace {

MigrationPlan sample_plan() {
  static BlockerCatalog blockers = BlockerCatalog::from_yaml(R"(
blockers:
  - {id: torchbind, title: TorchBind custom classes, apis: [torch::class_], workaround: "keep <it> in Python"}
)", "test.yaml");
  PlanInputs in;
  in.inputs = {"build"};
  in.baseline = {2, 9, 0};
  in.files_analysed = 3;
  auto add = [&](std::string api, std::string file, uint32_t line, Disposition d, std::string repl,
                 std::optional<TorchVersion> since, std::string blocker = "") {
    ApiUse u;
    u.api = api;
    u.replacement = repl;
    u.since = since;
    u.disposition = d;
    u.blocker = blocker;
    u.location.file = file;
    u.location.line = line;
    u.location.column = 2;
    in.uses.push_back(u);
  };
  add("at::Tensor", "src/ops.cpp", 4, Disposition::Fixable, "torch::stable::Tensor", TorchVersion{2, 9, 0});
  add("at::Tensor", "src/ops|x.cpp", 6, Disposition::Fixable, "torch::stable::Tensor", TorchVersion{2, 9, 0});
  add("AT_DISPATCH_FLOATING_TYPES", "src/ops.cpp", 9, Disposition::Manual, "THO_DISPATCH_V2", TorchVersion{2, 10, 0});
  add("torch::class_", "src/stack.cpp", 12, Disposition::Blocked, "", {}, "torchbind");
  return build_plan(in, blockers);
}

}  // namespace

TEST(PlanReporters, FormatsParse) {
  EXPECT_EQ(parse_plan_format("md"), PlanFormat::Markdown);
  EXPECT_EQ(parse_plan_format("html"), PlanFormat::Html);
  EXPECT_EQ(parse_plan_format("json"), PlanFormat::Json);
  EXPECT_FALSE(parse_plan_format("sarif"));
}

TEST(PlanReporters, JsonCarriesEverySection) {
  auto j = nlohmann::json::parse(render_plan_json(sample_plan()));
  EXPECT_EQ(j["command"], "migrate");
  EXPECT_EQ(j["summary"]["total"], 4);
  EXPECT_EQ(j["summary"]["fixable"], 2);
  EXPECT_EQ(j["summary"]["manual"], 1);
  EXPECT_EQ(j["summary"]["blocked"], 1);
  EXPECT_EQ(j["summary"]["files_with_work"], 3);
  EXPECT_EQ(j["target_version"]["release"], "2.10");
  EXPECT_EQ(j["target_version"]["hex"], "0x020a000000000000");
  EXPECT_EQ(j["apis"][0]["api"], "at::Tensor");
  EXPECT_EQ(j["apis"][0]["count"], 2);
  EXPECT_EQ(j["apis"][0]["uses"][0]["line"], 4);
  EXPECT_TRUE(j["apis"][2]["replacement"].is_null());
  EXPECT_EQ(j["blockers"][0]["id"], "torchbind");
  EXPECT_EQ(j["blockers"][0]["count"], 1);
  EXPECT_EQ(j["order"].size(), 3u);
  EXPECT_EQ(j["order"][2]["files"][0], "src/stack.cpp");
}

TEST(PlanReporters, MarkdownIsAPullRequestComment) {
  const std::string md = render_plan_markdown(sample_plan());
  EXPECT_NE(md.find("**4 non-stable uses in 3 files: 2 fixable, 1 manual, 1 blocked**"), std::string::npos) << md;
  EXPECT_NE(md.find("| `at::Tensor` | 2 | `torch::stable::Tensor` | 2.9 | 2 fixable |"), std::string::npos) << md;
  EXPECT_NE(md.find("`src/ops\\|x.cpp`"), std::string::npos) << "pipes in cells are escaped";
  EXPECT_NE(md.find("Lowest `TORCH_TARGET_VERSION` after migration: **2.10**"), std::string::npos);
  EXPECT_NE(md.find("**TorchBind custom classes** — 1 use"), std::string::npos);
  EXPECT_NE(md.find("### Order of work"), std::string::npos);
}

TEST(PlanReporters, HtmlIsSelfContainedAndEscaped) {
  const std::string html = render_plan_html(sample_plan());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("http://") == std::string::npos ? 0 : html.find("http://"),
            html.find("http://www.w3.org/2000/svg") == std::string::npos ? 0 : html.find("http://www.w3.org/2000/svg"))
      << "the only URL is the SVG namespace";
  EXPECT_NE(html.find("<table id=\"apis\">"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"chart\""), std::string::npos);
  EXPECT_NE(html.find("keep &lt;it&gt; in Python"), std::string::npos);
  // One bar group per file with work, each segment sized by its count.
  size_t bars = 0;
  for (size_t at = html.find("class=\"file-bar\""); at != std::string::npos; at = html.find("class=\"file-bar\"", at + 1))
    ++bars;
  EXPECT_EQ(bars, 3u);
  EXPECT_NE(html.find("data-file=\"src/ops.cpp\" data-total=\"2\""), std::string::npos);
}

TEST(PlanReporters, AGapShowsItsWorkaroundReleaseAndSource) {
  auto cat = BlockerCatalog::from_yaml(R"y(
gaps:
  - {id: add-in-place, title: In-place add, apis: [at::Tensor::add_], workaround: "subtract(x, y, -alpha)",
     source: "torch/csrc/stable/ops.h", added_in: "2.15"}
)y", "gaps.yaml", "gaps");
  PlanInputs in;
  in.inputs = {"a.cpp"};
  in.baseline = {2, 9, 0};
  ApiUse u;
  u.api = "at::Tensor::add_";
  u.disposition = Disposition::Blocked;
  u.blocker = "add-in-place";
  u.location.file = "a.cpp";
  u.location.line = 3;
  in.uses.push_back(u);
  const MigrationPlan plan = build_plan(in, cat);
  auto j = nlohmann::json::parse(render_plan_json(plan));
  ASSERT_EQ(j["blockers"].size(), 1u);
  EXPECT_EQ(j["blockers"][0]["workaround"], "subtract(x, y, -alpha)");
  EXPECT_EQ(j["blockers"][0]["added_in"], "2.15");
  EXPECT_EQ(j["blockers"][0]["source"], "torch/csrc/stable/ops.h");
  const std::string md = render_plan_markdown(plan);
  EXPECT_NE(md.find("the stable headers add it in 2.15"), std::string::npos) << md;
  EXPECT_NE(md.find("Source: torch/csrc/stable/ops.h"), std::string::npos) << md;
  EXPECT_NE(render_plan_html(plan).find("add it in 2.15"), std::string::npos);
}

TEST(PlanReporters, StepsProgressAndTheBaselineComparisonInEveryFormat) {
  MigrationPlan plan = sample_plan();
  ASSERT_EQ(plan.steps.size(), 3u);
  ProgressComparison c;
  c.baseline = "old<plan>.json";
  c.before = 5;
  c.now = 4;
  c.steps.push_back({plan.steps[0].id, plan.steps[0].files, 2, 1, "down"});
  c.steps.push_back({"s-00000000", {"gone.cpp"}, 1, std::nullopt, "gone"});
  plan.comparison = c;

  auto j = nlohmann::json::parse(render_plan_json(plan));
  EXPECT_EQ(j["progress"]["uses_left"], 4);
  EXPECT_EQ(j["progress"]["by_disposition"]["blocked"], 1);
  ASSERT_EQ(j["progress"]["per_step"].size(), 3u);
  size_t sum = 0;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(j["progress"]["per_step"][i]["id"], j["steps"][i]["id"]);
    EXPECT_EQ(j["steps"][i]["id"].get<std::string>().size(), 10u);
    sum += j["progress"]["per_step"][i]["uses_left"].get<size_t>();
  }
  EXPECT_EQ(sum, 4u);
  // The blocked file lands last and names its blocker.
  EXPECT_EQ(j["steps"][2]["files"][0], "src/stack.cpp");
  EXPECT_EQ(j["steps"][2]["blockers"][0], "torchbind: torch::class_ at src/stack.cpp:12");
  EXPECT_EQ(j["baseline"]["change"], -1);
  EXPECT_EQ(j["baseline"]["regressed"], false);
  EXPECT_EQ(j["baseline"]["per_step"][1]["status"], "gone");
  EXPECT_TRUE(j["baseline"]["per_step"][1]["now"].is_null());

  const std::string md = render_plan_markdown(plan);
  EXPECT_NE(md.find("### Steps"), std::string::npos);
  EXPECT_NE(md.find("`" + plan.steps[0].id + "`"), std::string::npos);
  EXPECT_NE(md.find("### Progress since `old<plan>.json`"), std::string::npos);
  EXPECT_NE(md.find("| gone |"), std::string::npos);

  const std::string html = render_plan_html(plan);
  EXPECT_NE(html.find("<ol id=\"steps\">"), std::string::npos);
  EXPECT_NE(html.find("data-id=\"" + plan.steps[0].id + "\""), std::string::npos);
  EXPECT_NE(html.find("old&lt;plan&gt;.json"), std::string::npos);
  EXPECT_EQ(html.find("old<plan>"), std::string::npos);
}
