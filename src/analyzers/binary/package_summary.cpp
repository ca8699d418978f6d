#include "analyzers/binary/package_summary.h"

#include "analyzers/binary/library_report.h"

namespace torchabi::binary {

void summarize_package(const PackageTotals& t, findings::Subject& s) {
  s.verdict = t.verdict;
  s.floor = t.floor.version;
  s.floor_is_baseline = t.floor.baseline;
  s.floor_set_by = t.floor.set_by;
  if (t.verdict == kVerdictUnstable) s.loads_on = "only the PyTorch release its libraries were built against";
  else if (t.verdict == kVerdictNoTorch)
    s.loads_on = t.libraries ? "any PyTorch release (nothing imported from PyTorch)" : "any PyTorch release (no shared libraries)";
  else if (t.floor.version) s.loads_on = "PyTorch >= " + t.floor.version->str() + (t.floor.baseline ? " (baseline)" : "");
  else s.loads_on = "PyTorch releases with the stable ABI";
}

}  // namespace torchabi::binary
