// Inline suppressions: `// torchabi: ignore[rule-id] reason` (or a /* */
// comment) on the line of a finding or on the line above. Several ids may be
// given, comma-separated, and ids may be globs (source-*). A suppression
// without a reason still suppresses, but is itself reported
// (source-suppression-without-reason): nobody can review an unexplained one.
#pragma once

#include <vector>

#include "analyzers/source/tu_check.h"
#include "findings/finding.h"

namespace torchabi::source {

// The suppression comments of the TU's project files.
std::vector<InlineSuppression> scan_inline_suppressions(CheckContext& ctx);

// Parses one comment; nullopt when it is not a torchabi suppression.
std::optional<InlineSuppression> parse_suppression_comment(std::string_view comment);

// Whether `s` covers `f`: same file, f on the comment's line or the next one,
// and one of its ids (or globs) matches f's rule.
bool covers(const InlineSuppression& s, const findings::Finding& f);

// Removes the findings the suppressions cover (counting them in
// report.suppressed) and adds a finding for each suppression without a reason.
// Suppressions are de-duplicated by file and line first (a header's comments
// are seen by every TU that includes it).
void apply_inline_suppressions(findings::Report& report, std::vector<InlineSuppression> suppressions);

}  // namespace torchabi::source
