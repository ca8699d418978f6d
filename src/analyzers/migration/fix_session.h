// `torchabi migrate --fix`: lint's fix-its plus the header rewrite, applied
// in two passes so the header decision sees which fixes really went in (a
// refused fix leaves a legacy use behind, and with it the legacy include).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzers/migration/fix_applier.h"
#include "analyzers/migration/include_graph.h"
#include "analyzers/migration/plan.h"

namespace torchabi::migration {

namespace stable_ops {
class Generator;
}

struct FixSessionInputs {
  std::vector<ApiUse> uses;                // every use lint reported, with its fix-it if any
  IncludeGraph includes;                   // normal paths, see include_graph.h
  std::map<std::string, std::vector<ProtectedRange>> protected_ranges;  // by file, from the front end
  bool include_unsafe = false;
  // Writes the stable_ops.h of the helpers the applied fixes call (uses with
  // a stable_op), next to the files that call them; none without it.
  std::shared_ptr<const stable_ops::Generator> stable_ops;
};

// Computes every rewrite; writes nothing (see write_rewrites).
RewritePlan plan_fixes(const FixSessionInputs& in);

}  // namespace torchabi::migration
