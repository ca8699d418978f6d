#include "analyzers/build/both_ways.h"

#include <set>
#include <utility>

#include "analyzers/build/linted_configurations.h"
#include "findings/note_prefixes.h"

namespace torchabi::build {

namespace detail_both_ways {

bool mentions(const findings::Finding& f, const std::string& macro) {
  if (f.message.find(macro) != std::string::npos || f.help.find(macro) != std::string::npos) return true;
  for (const auto& n : f.notes)
    if (n.find(macro) != std::string::npos) return true;
  return false;
}

// -DUSE_CUDA, -DUSE_CUDA=..., -UUSE_CUDA: the command decides it.
bool decides(const std::vector<std::string>& args, const std::string& macro) {
  for (const auto& a : args)
    if (a == "-D" + macro || a.starts_with("-D" + macro + "=") || a == "-U" + macro) return true;
  return false;
}

}  // namespace detail_both_ways

std::optional<inputs::CompileDb> commands_to_lint_with_cuda(const inputs::ProjectBuild& project, bool all_unknown,
                                                            const findings::Report& first) {
  using namespace detail_both_ways;
  const std::string macro = kOtherWayDefine;
  // The sources (as the report shows them) whose lint met USE_CUDA: the
  // file of the finding, or the source that compiled the header it is in.
  std::set<std::string> met;
  // Only an inactive branch hides code the other way would parse: a name
  // the shim declares under USE_CUDA (build-api-hidden-by-configuration) is
  // already a note while the flags are unknown, and the other way would only
  // take it back (at the cost of a second lint of every such TU).
  for (const auto& f : first.findings) {
    if (f.rule != "source-inactive-branch" || !mentions(f, macro)) continue;
    met.insert(shown_path(f.location.file));
    for (const auto& n : f.notes)
      if (n.starts_with(findings::kCompiledFrom)) met.insert(shown_path(n.substr(findings::kCompiledFrom.size())));
  }
  if (met.empty()) return std::nullopt;
  std::set<std::string> unknown;  // labels of the configurations with unresolved flags
  for (const auto& c : project.configurations)
    if (all_unknown || !c.unresolved.empty()) unknown.insert(c.label());
  inputs::CompileDb again;
  again.path = project.db.path;
  for (const auto& cmd : project.db.commands) {
    if (cmd.reference_only || !unknown.count(cmd.label) || !met.count(shown_path(cmd.file)) ||
        decides(cmd.arguments, macro))
      continue;
    inputs::CompileCommand c = cmd;
    c.arguments.insert(c.arguments.begin() + 1, "-D" + macro);
    again.commands.push_back(std::move(c));
  }
  if (again.commands.empty()) return std::nullopt;
  return again;
}

void drop_branches_seen_both_ways(findings::Report& merged) {
  std::set<std::pair<std::string, uint32_t>> used;
  for (const auto& f : merged.findings)
    if (f.rule == "source-unstable-api" || f.rule == "source-unstable-macro" || f.rule == "source-unstable-include")
      used.emplace(f.location.file, f.location.line);
  std::erase_if(merged.findings, [&](const findings::Finding& f) {
    return f.rule == "source-inactive-branch" && used.count({f.location.file, f.location.line});
  });
}

}  // namespace torchabi::build
