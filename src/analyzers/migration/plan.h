// The migration plan: what `torchabi migrate` tells a maintainer before they
// port an extension to the LibTorch stable ABI. Built from lint's findings by
// plan_builder.h; rendered by reporters/migration_*.cpp. Pure data.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/version.h"
#include "findings/finding.h"

namespace torchabi::migration {

// What it takes to replace one use.
enum class Disposition {
  Fixable,        // `--fix` rewrites it
  FixableUnsafe,  // `--fix --unsafe-fixes` rewrites it; review the result
  Manual,         // a stable replacement exists; a person must apply it
  Blocked,        // nothing stable replaces it today
};
const char* to_string(Disposition d);  // "fixable", "fixable-unsafe", "manual", "blocked"

// One use of a non-stable API in the project's code.
struct ApiUse {
  std::string api;                      // "at::Tensor", "TORCH_CHECK", "torch/extension.h"
  std::string replacement;              // empty: none
  std::string header;                   // where the replacement is declared ("<optional>" for std headers)
  std::optional<TorchVersion> since;    // release that introduced the replacement
  std::string note;
  Disposition disposition = Disposition::Manual;
  std::string blocker;                  // blocker id when Blocked by a known blocker
  findings::Location location;
  bool is_include = false;              // an #include of a non-stable header
  std::optional<findings::FixIt> fix;   // lint's rewrite, when it has one
  std::optional<findings::FixIt> fallback_fix;  // the same rewrite for an older release (Finding::fallback_fix)
  // Needs no edit of its own: it becomes stable once one of these APIs is
  // rewritten in the same file (x.dim() once x's type is torch::stable::Tensor).
  std::vector<std::string> follows;
  // The helper of the project's stable_ops.h the fix calls ("mul.Tensor"):
  // the fix session writes it there (stable_ops/stable_ops.h).
  std::string stable_op;
  // The same spelling keeps working once the operand types are stable
  // (x.size(0), a ScalarType ==): counted apart, not as work.
  bool unchanged = false;
  // An older stable spelling that also does the job (new_empty for empty,
  // data_ptr() for mutable_data_ptr<T>()): the plan's target counts its
  // release (rules/api/alternatives.yaml).
  std::string alternative;
  std::optional<TorchVersion> alternative_since;
  std::string alternative_how;
  // The release this use needs: the alternative's when it has an older one.
  std::optional<TorchVersion> needs() const { return alternative_since ? alternative_since : since; }
};

struct Counts {
  size_t fixable = 0, fixable_unsafe = 0, manual = 0, blocked = 0;
  size_t unchanged = 0;  // uses that need no edit once their types are stable: not work
  size_t total() const { return fixable + fixable_unsafe + manual + blocked; }
  void add(Disposition d);
  void add(const ApiUse& u);  // counts an unchanged use apart
};

// All uses of one API, most-used APIs first.
struct ApiGroup {
  std::string api;
  std::string replacement;
  std::optional<TorchVersion> since;
  std::string alternative;  // an older spelling the target counts (see ApiUse)
  std::optional<TorchVersion> alternative_since;
  std::string note;
  Counts counts;
  std::vector<findings::Location> uses;  // sorted by file, line, column
  std::vector<std::string> files;        // distinct, sorted
};

struct BlockerGroup {
  std::string id, title, workaround;
  std::optional<TorchVersion> partial_since;
  std::optional<TorchVersion> added_in;  // a release whose stable headers add it (Blocker::added_in)
  std::string source;
  std::vector<std::string> apis;         // the blocked APIs actually used, sorted
  std::vector<findings::Location> uses;
};

struct FileProgress {
  std::string path;
  Counts counts;
};

// Files that should change together: a header whose API changes and every
// project file that includes it, directly or through clean headers.
struct WorkGroup {
  std::vector<std::string> files;  // headers before the files that include them
  Counts counts;
  std::string why;                 // "include/ops.h is included by a.cpp, b.cpp"; empty for one file
};

// One step of the incremental plan: files that land in one pull request that
// still builds and loads (steps.h says how they are grouped and ordered).
struct StepEdit {
  std::string file;  // a file of another step that this step also edits
  uint32_t line = 0;
  std::string what;  // "move the registration of scale_cpu into a STABLE_TORCH_LIBRARY_IMPL(ext, CPU, m) block"
};

struct PlanStep {
  std::string id;                  // "s-1a2b3c4d": from the sorted file list, the same while the files are
  std::string kind;                // "code", "library-defs" or "pybind-module"
  std::vector<std::string> files;  // leaves first: headers and helpers before their users
  Counts counts;                   // uses left in these files
  std::vector<std::string> why;    // why these files move together
  std::vector<std::string> builds; // what makes the step build and load
  std::vector<StepEdit> edits;     // lines of other steps' files this step changes
  std::vector<std::string> blockers;  // "torchbind: torch::class_ at a.cpp:4"
  std::vector<std::string> after;  // ids of the steps that land first
  bool keep_legacy_module = false; // blocked: keep these files in a separate non-stable module
};

// One operator namespace: where its defs and impls are, and how it moves.
struct LibraryBlockRef {
  std::string file;
  uint32_t line = 0;
  std::string dispatch_key;  // empty for def and fragment blocks
  bool stable = false;
  std::string step;          // id of the step holding the file; empty when the file has no work left
};

struct LibraryPlan {
  std::string ns;
  std::vector<LibraryBlockRef> defs;  // TORCH_LIBRARY / STABLE_TORCH_LIBRARY (and fragments)
  std::vector<LibraryBlockRef> impls;
  std::string plan;                   // how the namespace moves, one sentence
};

// What CI tracks between runs (docs/migrate.md, "Progress"): uses left in
// total and per step, compared with a previous plan's JSON (--baseline).
struct StepChange {
  std::string id;
  std::vector<std::string> files;
  std::optional<size_t> before, now;  // unset: the step did not exist in that run
  std::string status;                 // "down", "up", "same", "new", "gone"
};

struct ProgressComparison {
  std::string baseline;               // the file compared with
  size_t before = 0, now = 0;
  Counts before_counts;
  std::vector<StepChange> steps;
  bool regressed = false;             // uses left went up in total or in a step that still exists
};

struct MigrationPlan {
  std::vector<std::string> inputs;
  size_t files_analysed = 0;       // translation units and project headers seen
  Counts summary;
  std::vector<ApiGroup> apis;
  std::vector<BlockerGroup> blockers;
  // Lowest TORCH_TARGET_VERSION the migrated code needs: the newest release
  // among the replacements it will use. `target_is_baseline`: nothing newer
  // than the catalog baseline is used ("2.9 or earlier").
  std::optional<TorchVersion> target;
  bool target_is_baseline = false;
  std::vector<std::string> target_set_by;
  // The uses that need `target` even with every older alternative taken:
  // "at::Tensor::contiguous at a.cpp:28 -> torch::stable::contiguous".
  std::vector<std::string> target_forced_by;
  // `--target-version V`: the plan stays at or below V; the uses whose every
  // stable spelling is newer are listed ("at::empty at a.cpp:3 -> torch::stable::empty needs 2.10").
  std::optional<TorchVersion> ceiling;
  std::vector<std::string> above_ceiling;
  std::vector<FileProgress> files;  // most remaining work first
  std::vector<WorkGroup> order;
  std::vector<PlanStep> steps;      // the incremental plan, in landing order
  std::vector<LibraryPlan> libraries;
  std::optional<ProgressComparison> comparison;  // --baseline
  std::vector<std::string> notes;   // e.g. what the front end could not parse
  std::vector<findings::InputFailure> failures;
};

}  // namespace torchabi::migration
