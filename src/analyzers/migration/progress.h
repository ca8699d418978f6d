// Progress CI can track: the uses left, in total and per step, read back from
// a previous plan's JSON (`--baseline FILE`) and compared with this run.
// Steps are matched by id (steps.h: the same files, the same id); a step
// whose files changed is "gone" in the baseline and "new" here.
#pragma once

#include <string>
#include <vector>

#include "analyzers/migration/plan.h"

namespace torchabi::migration {

struct StepProgress {
  std::string id;
  std::vector<std::string> files;
  size_t uses_left = 0;
};

struct Progress {
  size_t uses_left = 0;
  Counts by_disposition;
  std::vector<StepProgress> steps;
};

Progress progress_of(const MigrationPlan& plan);

// The `progress` object of a plan JSON text. Throws InputError naming
// `origin` when the text is not JSON or has no progress figures.
Progress parse_progress_json(const std::string& text, const std::string& origin);

// Reads `path` (a plan written by `migrate --format json` or --write-baseline);
// InputError naming it when it is missing, unreadable or not such a plan.
Progress read_progress_file(const std::string& path);

ProgressComparison compare_progress(const Progress& before, const Progress& now, const std::string& baseline);

}  // namespace torchabi::migration
