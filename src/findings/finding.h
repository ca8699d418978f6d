// The one findings model every analyzer emits into and every reporter reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/version.h"
#include "findings/torch_load.h"

namespace torchabi::findings {

enum class Severity { Note = 0, Warning = 1, Error = 2 };

const char* to_string(Severity s);
std::optional<Severity> parse_severity(std::string_view text);

// Where a finding points. Source findings use file/line/column; binary findings
// use file (the library, or the wheel) plus `member` (the .so inside a wheel)
// and `symbol`. Lines and columns are 1-based; 0 means "not applicable".
struct Location {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string member;
  std::string symbol;

  // "file:line:col", "wheel.whl!lib/x.so", "x.so" — how the text reporter prints it.
  std::string display() const;
  // "file:line", or "file" when there is no line: a place in a list of uses.
  std::string file_line() const { return line ? file + ":" + std::to_string(line) : file; }
  auto operator<=>(const Location&) const = default;
};

enum class FixSafety { Safe, Unsafe };

// Original bytes [begin_offset, end_offset) that a fix-it's replacement
// copies verbatim, starting at `at` in the replacement.
struct KeptText {
  uint32_t begin_offset = 0;
  uint32_t end_offset = 0;
  uint32_t at = 0;
  bool operator==(const KeptText&) const = default;
};

// A replacement of [begin, end) in `file` (byte offsets), as clang fix-its are.
struct FixIt {
  std::string file;
  uint32_t begin_offset = 0;
  uint32_t end_offset = 0;
  std::string replacement;
  FixSafety safety = FixSafety::Unsafe;
  std::string description;
  // The release the rewritten code needs (unset: any). `migrate --fix` does
  // not write code its target release cannot build.
  std::optional<TorchVersion> needs;
  // The text this rewrite keeps (a macro's lambda argument, a call's
  // receiver): a fix-it inside it is applied to the copy, not refused as an
  // overlap (migration/fix_nesting.h).
  std::vector<KeptText> kept;
};

struct Finding {
  std::string rule;                   // kebab-case id registered in rules/checks/
  std::optional<Severity> severity;   // unset: the rule's default severity
  Location location;
  std::string message;                // what is wrong, one sentence
  std::string help;                   // what to do instead
  std::vector<std::string> notes;     // supporting facts (include chains, symbols, ...)
  std::optional<FixIt> fix;
  // The same rewrite spelled for an older release (`static_cast<T*>(x.data_ptr())`
  // for `x.mutable_data_ptr<T>()`): taken instead of `fix` when the target is
  // older than `fix->needs`.
  std::optional<FixIt> fallback_fix;

  // Identity that survives unrelated edits: rule, file, member, symbol and the
  // message, but not line numbers. Baselines store these.
  std::string fingerprint() const;
};

// A finding of `rule` at `where` with its message and help: what most
// analyzers build before adding notes or a fix.
Finding make_finding(std::string rule, Location where, std::string message, std::string help);

// One analysed thing: a shared library, a wheel, a translation unit. Carries
// the per-subject verdict that is not itself a problem (a library that is
// STABLE still deserves a line in the report).
struct Subject {
  std::string kind;                   // "library", "wheel", "translation-unit", "extension"
  std::string path;                   // as the user sees it (wheel.whl!member.so)
  std::string verdict;                // e.g. STABLE / UNSTABLE / NO-TORCH; empty if none
  std::optional<TorchVersion> floor;  // oldest release it can load on / needs
  bool floor_is_baseline = false;     // floor is "2.9 or earlier": nothing newer used
  std::string loads_on;               // human summary: ">= 2.10", "only the release it was built with"
  std::vector<std::string> floor_set_by;  // what sets the floor (symbols, APIs)
  std::vector<std::pair<std::string, std::string>> facts;  // ordered extra facts for reports
  std::vector<TorchLoad> torch;  // audit --torch: whether it loads on each install, in --torch order
};

// An input that could not be analysed at all (exit code 2).
struct InputFailure {
  std::string input;
  std::string message;
  std::string line() const { return input + ": " + message; }
};

struct Report {
  std::string command;  // "audit", "lint", ...
  std::vector<Subject> subjects;
  std::vector<Finding> findings;
  std::vector<InputFailure> failures;
  std::vector<TorchInstallInfo> torches;  // audit --torch: the installs, in the order given
  size_t suppressed = 0;  // by config/inline suppressions
  size_t baselined = 0;   // accepted by --baseline

  void add(Finding f) { findings.push_back(std::move(f)); }

  // Removes every subject fact named `key` and returns their values in order.
  // Analyses that run inside lint's child processes hand data back to their
  // command this way (it travels and is cached with the TU's result); it must
  // never reach a reporter.
  std::vector<std::string> take_facts(std::string_view key);
};

}  // namespace torchabi::findings
