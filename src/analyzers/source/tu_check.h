// The check interface of `torchabi lint`: each check looks at one parsed TU
// and reports findings into its TuResult. Checks run in the child process
// that parsed the TU; the TuResult is what comes back (and what is cached).
//
// Other analyses add checks without editing lint: register a factory with
// register_tu_check() before lint runs (e.g. from a command's registration).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzers/source/front_end.h"
#include "analyzers/source/lint_env.h"
#include "findings/finding.h"

namespace torchabi::source {

// `// torchabi: ignore[rule-a, rule-b] reason` in a project file.
struct InlineSuppression {
  std::string file;
  uint32_t line = 0;    // the comment's line; it covers this line and the next
  uint32_t column = 0;
  std::vector<std::string> rules;  // ids or globs
  std::string reason;   // empty: the suppression is itself a finding
};

// What one TU produced.
struct TuResult {
  findings::Subject subject;
  std::vector<findings::Finding> findings;
  std::vector<InlineSuppression> suppressions;
  std::vector<std::string> files_read;     // the TU's inputs, for the cache
  std::vector<std::string> files_missing;  // looked for and absent, for the cache
  std::string failure;                     // set when the TU could not be analysed
  bool crashed = false;
};

class CheckContext {
public:
  CheckContext(const ParsedTu& tu, const LintEnv& env, TuResult& out) : tu(tu), env(env), out_(out) {}

  const ParsedTu& tu;
  const LintEnv& env;

  void report(findings::Finding f) { out_.findings.push_back(std::move(f)); }
  const std::vector<findings::Finding>& reported() const { return out_.findings; }
  findings::Subject& subject() { return out_.subject; }

  // Tokens of a project file outside preprocessor-skipped blocks (cached).
  const std::vector<Token>& tokens(const std::string& file);
  // References the AST resolved, classified (cached).
  const std::vector<std::pair<const Reference*, ApiClass>>& classified_references();
  // Byte offsets of project files covered by a resolved reference's written name.
  bool covered_by_reference(const std::string& file, uint32_t offset);

private:
  TuResult& out_;
  std::unordered_map<std::string, std::vector<Token>> tokens_;
  std::optional<std::vector<std::pair<const Reference*, ApiClass>>> classified_;
  std::unordered_map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> covered_;
  bool covered_built_ = false;
};

class TuCheck {
public:
  virtual ~TuCheck() = default;
  virtual void run(CheckContext& ctx) = 0;
};

using TuCheckFactory = std::function<std::unique_ptr<TuCheck>()>;

// Adds a check to every lint run in this process; `id` names it in cache keys.
void register_tu_check(const std::string& id, TuCheckFactory factory);

// The built-in checks followed by the registered ones, in a fixed order.
std::vector<std::unique_ptr<TuCheck>> make_lint_checks();
// Identifies the check set (cache key material).
std::string lint_checks_id();

// Helpers shared by the checks.
findings::Location location_of(const Range& r);
findings::FixIt make_fix(const Range& r, std::string replacement, bool safe, std::string description);
// A path in a message or note. Results stay absolute so that they can be
// cached whatever the working directory; run_lint() shortens paths below the
// working directory when it builds the report.
std::string display_path(const std::string& abs_path);
// "file:line" of an #include line, for include chains in messages.
std::string include_site(const IncludeDirective& d);

}  // namespace torchabi::source
