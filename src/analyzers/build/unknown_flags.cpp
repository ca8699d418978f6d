// Findings on sources linted without their build's flags (project mode's
// sweep, inputs/project/source_sweep.h), or with flags a static reader could
// not fully determine (`extra_compile_args` computed by a function): the
// target, USE_CUDA and the other macros the build sets are unknown there, so
// an error or a warning that rests on them would be a guess reported as a
// fact. They stay in the report as notes that say so.
#include "analyzers/build/configuration_checks.h"

#include "analyzers/build/linted_configurations.h"
#include "findings/note_prefixes.h"

#include <algorithm>

namespace torchabi::build {

namespace {

// Rules whose verdict depends on what the build defines or which headers it
// finds; the others judge the names the code itself uses.
// The registration checks that conclude from what is absent need every
// source of the build: a source list read under unknown conditions may lack
// the file that registers the kernel.
bool rests_on_flags(const std::string& rule) {
  return rule.starts_with("build-") || rule.starts_with("version-") || rule == "source-inactive-branch" ||
         rule == "source-target-version-undefined" || rule == "source-undefined-stable-function" ||
         rule == "schema-def-without-impl" || rule == "schema-impl-without-def";
}

void demote(findings::Finding& f, const std::string& why) {
  f.severity = findings::Severity::Note;
  f.message += " (" + why + ")";
}

bool compiles_file(const inputs::BuildConfiguration& c, const std::string& file) {
  const std::string shown = shown_path(file);
  return std::any_of(c.sources.begin(), c.sources.end(), [&](const auto& s) { return shown_path(s) == shown; });
}

bool is_note(const findings::Finding& f) { return f.severity && *f.severity == findings::Severity::Note; }

}  // namespace

void keep_what_rests_on_known_flags(findings::Report& lint) {
  for (auto& f : lint.findings)
    if (rests_on_flags(f.rule) && !is_note(f)) demote(f, "a guess: the build's flags are unknown, see project-flag-unresolved");
}

void keep_what_rests_on_resolved_flags(const inputs::ProjectBuild& project, const std::string& platform,
                                       findings::Report& lint) {
  for (const auto& conf : project.configurations) {
    if (conf.platform != platform || conf.unresolved.empty()) continue;
    const std::string label = conf.label();
    for (auto& f : lint.findings) {
      if (!rests_on_flags(f.rule) || is_note(f)) continue;
      // A finding concerns the configuration when it is in one of its
      // sources, or names it (the project-level build-* findings do).
      // A finding in a header concerns the configurations of the source
      // that compiled it (lint's "compiled from" note).
      bool concerns = compiles_file(conf, f.location.file) || f.message.find(label) != std::string::npos ||
                      f.message.find(conf.unit + " ") != std::string::npos;
      for (const auto& n : f.notes)
        concerns |= n.find(label) != std::string::npos ||
                    (n.starts_with(findings::kCompiledFrom) && compiles_file(conf, n.substr(findings::kCompiledFrom.size())));
      if (concerns) demote(f, "it rests on flags that could not be determined: " + conf.unresolved);
    }
  }
}

}  // namespace torchabi::build
