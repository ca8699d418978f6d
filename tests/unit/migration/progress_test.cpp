// Progress figures and the --baseline comparison (progress.h).
#include <gtest/gtest.h>

#include "analyzers/migration/progress.h"
#include "common/input_error.h"
#include "test_files.h"

using namespace torchabi::migration;

namespace {

Progress progress(size_t total, std::vector<StepProgress> steps) {
  Progress p;
  p.uses_left = total;
  p.steps = std::move(steps);
  return p;
}

}  // namespace

TEST(Progress, StepsAreMatchedByIdAndAnIncreaseIsARegression) {
  const Progress before = progress(10, {{"s-1", {"a.cpp"}, 4}, {"s-2", {"b.cpp"}, 6}, {"s-3", {"c.cpp"}, 0}});
  const Progress down = progress(7, {{"s-1", {"a.cpp"}, 1}, {"s-2", {"b.cpp"}, 6}, {"s-4", {"d.cpp"}, 0}});
  const ProgressComparison c = compare_progress(before, down, "base.json");
  EXPECT_FALSE(c.regressed);
  EXPECT_EQ(c.before, 10u);
  EXPECT_EQ(c.now, 7u);
  ASSERT_EQ(c.steps.size(), 4u);
  EXPECT_EQ(c.steps[0].status, "down");
  EXPECT_EQ(c.steps[1].status, "same");
  EXPECT_EQ(c.steps[2].status, "new");
  EXPECT_FALSE(c.steps[2].before);
  EXPECT_EQ(c.steps[3].status, "gone");
  EXPECT_EQ(c.steps[3].id, "s-3");

  EXPECT_TRUE(compare_progress(before, progress(11, {}), "b").regressed);
  // Down in total, up in a step that still exists: still a regression.
  const ProgressComparison moved = compare_progress(before, progress(9, {{"s-1", {"a.cpp"}, 5}}), "b");
  EXPECT_TRUE(moved.regressed);
  EXPECT_EQ(moved.steps[0].status, "up");
}

TEST(Progress, ReadsWhatTheJsonReporterWritesAndRejectsAnythingElse) {
  const Progress p = parse_progress_json(R"({"progress": {"uses_left": 3,
      "by_disposition": {"fixable": 2, "fixable_unsafe": 0, "manual": 1, "blocked": 0},
      "per_step": [{"id": "s-00000001", "files": ["a.cpp"], "uses_left": 3}]}})", "p.json");
  EXPECT_EQ(p.uses_left, 3u);
  EXPECT_EQ(p.by_disposition.fixable, 2u);
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].files, std::vector<std::string>{"a.cpp"});

  for (const char* bad : {"not json", "[]", R"({"summary": {}})", R"({"progress": {"uses_left": -1, "per_step": []}})",
                          R"({"progress": {"uses_left": 1}})", R"({"progress": {"uses_left": 1, "per_step": [{}]}})"}) {
    try {
      parse_progress_json(bad, "old.json");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const torchabi::InputError& e) {
      EXPECT_EQ(e.input(), "old.json");
      EXPECT_EQ(e.line().find('\n'), std::string::npos);
    }
  }
  EXPECT_THROW(read_progress_file(torchabi::migration::testing::scratch_dir() + "/missing.json"), torchabi::InputError);
}
