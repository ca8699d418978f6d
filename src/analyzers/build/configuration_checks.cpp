#include "analyzers/build/configuration_checks.h"

#include <algorithm>

#include "analyzers/build/checks.h"

namespace torchabi::build {

std::vector<findings::Finding> take_file_target_findings(findings::Report& report, const std::vector<std::string>& files) {
  std::vector<findings::Finding> taken;
  auto covered = [&](const findings::Finding& f) {
    return f.rule == "build-target-version-missing" &&
           std::find(files.begin(), files.end(), f.location.file) != files.end();
  };
  for (const auto& f : report.findings)
    if (covered(f)) taken.push_back(f);
  std::erase_if(report.findings, covered);
  return taken;
}

void check_configurations(const inputs::ProjectBuild& project, const std::string& platform, findings::Report& lint) {
  const ProjectView view = view_of(project, platform, lint);
  // Mismatch first: a compiler without the target next to one with it is
  // that defect, not "no target at all".
  check_target_mismatch(view, lint);
  check_target_missing(view, lint);
  check_define_missing(view, lint);
  check_requirement(view, lint);
  check_jit_requirement(view, lint);
  keep_what_rests_on_resolved_flags(project, platform, lint);
  keep_targets_of_shipped_libraries(project, platform, lint);
  note_branches_no_configuration_compiles(project, lint);
}

}  // namespace torchabi::build
