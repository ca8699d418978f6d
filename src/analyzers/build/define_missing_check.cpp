// build-define-missing: a configuration lacks a macro that a stable API it
// calls is declared under (USE_CUDA for aoti_torch_get_current_cuda_stream),
// as build-api-hidden-by-configuration found in its sources. Reported at the
// build file, and with the platforms whose branch of the build script does
// define it (`-DUSE_CUDA` only `if os.name == "nt"`).
#include <algorithm>
#include <map>
#include <set>

#include "analyzers/build/checks.h"
#include "findings/note_prefixes.h"

namespace torchabi::build {

namespace {

// "... add -DUSE_CUDA to ...": the macro the hidden-API finding asks for.
std::string macro_asked(const findings::Finding& f) {
  const size_t at = f.help.find("add -D");
  if (at == std::string::npos) return {};
  size_t end = at + 6;
  while (end < f.help.size() && (std::isalnum(static_cast<unsigned char>(f.help[end])) || f.help[end] == '_')) ++end;
  return f.help.substr(at + 6, end - at - 6);
}

bool compiles(const inputs::BuildConfiguration& c, const std::string& shown) {
  return std::any_of(c.sources.begin(), c.sources.end(),
                     [&](const auto& s) { return shown_path(s) == shown_path(shown); });
}

// A finding in a header belongs to the configurations of the sources that
// compiled it (the "compiled from" note lint adds), a finding in a source to
// that source's.
bool compiles_finding(const inputs::BuildConfiguration& c, const findings::Finding& f) {
  if (compiles(c, f.location.file)) return true;
  for (const auto& n : f.notes)
    if (n.starts_with(findings::kCompiledFrom) && compiles(c, n.substr(findings::kCompiledFrom.size()))) return true;
  return false;
}

}  // namespace

void check_define_missing(const ProjectView& view, findings::Report& report) {
  // One finding per configuration and macro, at the build file; the uses stay
  // reported at their lines (build-api-hidden-by-configuration), and later
  // uses of the same macro are listed in its notes.
  std::map<std::pair<std::string, std::string>, size_t> made;  // label, macro -> index in out
  std::vector<findings::Finding> out;
  for (const auto& f : report.findings) {
    // A note is a verdict lint could not give (a file for another toolchain).
    if (f.rule != "build-api-hidden-by-configuration" || f.severity == findings::Severity::Note) continue;
    const std::string macro = macro_asked(f);
    if (macro.empty()) continue;
    for (const auto& lc : view.linted) {
      const inputs::BuildConfiguration& c = *lc.config;
      if (!compiles_finding(c, f) || define_value(c, macro)) continue;
      if (auto it = made.find({c.label(), macro}); it != made.end()) {
        out[it->second].notes.push_back("also needed at " + f.location.display() + " (" + f.location.symbol + ")");
        continue;
      }
      std::vector<std::string> platforms;
      for (const auto* other : view.elsewhere)
        if (other->unit == c.unit && other->compiler == c.compiler && define_value(*other, macro) &&
            std::find(platforms.begin(), platforms.end(), other->platform) == platforms.end())
          platforms.push_back(other->platform);
      findings::Finding g = at_declaration("build-define-missing", c);
      g.severity = findings::Severity::Error;
      g.location.symbol = macro;
      std::string where;
      for (const auto& p : platforms) where += (where.empty() ? "" : ", ") + p;
      g.message = c.label() + " does not define " + macro + " on " + view.platform + ", which " + f.location.symbol +
                  " needs (" + f.location.display() + "), so this build does not compile" +
                  (where.empty() ? std::string() : "; the build script defines it only on " + where);
      g.notes.push_back(f.message);
      g.help = "Add -D" + macro + " to " + where_flags_go(c) +
               (where.empty() ? std::string() : " on every platform, not only in the " + where + " branch") + ".";
      made[{c.label(), macro}] = out.size();
      out.push_back(std::move(g));
    }
  }
  for (auto& g : out) report.findings.push_back(std::move(g));
}

}  // namespace torchabi::build
