// Composes fix-its that nest: `x.data_ptr<float>()` inside the lambda that
// the AT_DISPATCH -> THO_DISPATCH_V2 rewrite keeps, `at::empty(...)` inside
// the receiver of `torch::stable::contiguous(...)`. Each fix-it lying inside
// text another one copies verbatim (FixIt::kept) is applied to that copy, so
// both go in; without this the applier would have to refuse one as an
// overlap, and the file would no longer compile.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "findings/finding.h"

namespace torchabi::migration {

struct NestedFix {
  size_t index = 0;                        // its position in the input
  findings::FixIt fix;                     // its replacement includes what it absorbed
  std::vector<findings::FixIt> absorbed;   // the fix-its now inside it, for the report
};

struct NestingResult {
  std::vector<NestedFix> top;  // in input order
  // Nested fix-its that could not be composed (they overlap a sibling, or the
  // copy no longer holds their text), with the fix-it they were inside.
  std::vector<std::pair<findings::FixIt, findings::FixIt>> refused;
};

// `fixes`: the candidate fix-its of one file whose text is `text`.
NestingResult fold_nested_fixes(const std::vector<findings::FixIt>& fixes, std::string_view text);

}  // namespace torchabi::migration
