// Compiler-style text: "path:line:col: error: message [rule-id]", so editors
// and CI log parsers that understand gcc/clang output pick findings up.
#include <algorithm>

#include "findings/rule_registry.h"
#include "reporters/path_bytes.h"
#include "reporters/reporter.h"
#include "reporters/torch_matrix.h"

namespace torchabi::reporters {

namespace {

struct Palette {
  bool on;
  std::string bold() const { return on ? "\033[1m" : ""; }
  std::string reset() const { return on ? "\033[0m" : ""; }
  std::string sev(findings::Severity s) const {
    if (!on) return "";
    switch (s) {
      case findings::Severity::Error: return "\033[1;31m";
      case findings::Severity::Warning: return "\033[1;35m";
      case findings::Severity::Note: return "\033[1;36m";
    }
    return "";
  }
  std::string yes_no(bool loads) const {
    if (!on) return "";
    return loads ? "\033[32m" : "\033[31m";
  }
  std::string verdict(const std::string& v) const {
    if (!on) return "";
    if (v == "STABLE") return "\033[1;32m";
    if (v == "UNSTABLE") return "\033[1;31m";
    return "\033[1m";
  }
};

// audit --torch: a table of libraries by installs, then what each column is.
std::string torch_matrix(const findings::Report& r, const Palette& p) {
  const std::vector<std::string> cols = torch_columns(r);
  size_t first = 7;  // "library"
  for (const auto& s : r.subjects) first = std::max(first, s.path.size());
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> width;
  for (const auto& c : cols) width.push_back(c.size());
  for (const auto& s : r.subjects) {
    std::vector<std::string> row;
    for (size_t k = 0; k < r.torches.size(); ++k) {
      const auto* l = torch_entry(s, r.torches[k].id);
      row.push_back(l ? torch_cell(*l) : "-");
      width[k] = std::max(width[k], row.back().size());
    }
    cells.push_back(std::move(row));
  }
  auto pad = [](const std::string& t, size_t w) { return t + std::string(w > t.size() ? w - t.size() : 0, ' '); };
  std::string out = "\n" + p.bold() + "loads on (measured)" + p.reset() + "\n";
  // The last column is not padded: no trailing blanks.
  auto width_of = [&](size_t k) { return k + 1 == cols.size() ? 0 : width[k]; };
  out += "  " + pad("", first);
  for (size_t k = 0; k < cols.size(); ++k) out += "  " + pad(cols[k], width_of(k));
  out += "\n";
  for (size_t i = 0; i < r.subjects.size(); ++i) {
    out += "  " + pad(r.subjects[i].path, first);
    for (size_t k = 0; k < cols.size(); ++k) {
      const std::string& c = cells[i][k];
      out += "  " + p.yes_no(c == "yes") + pad(c, width_of(k)) + p.reset();
    }
    out += "\n";
  }
  for (size_t k = 0; k < cols.size(); ++k) {
    const auto& t = r.torches[k];
    out += "  " + cols[k] + ": " + t.id + " (" + t.kind;
    if (!t.version_source.empty()) out += ", version from " + t.version_source;
    out += ")\n";
  }
  return out;
}

}  // namespace

std::string render_text(const findings::Report& r, const findings::RuleRegistry&, const RenderOptions& o) {
  Palette p{o.color};
  std::string out;
  if (!o.group_by.empty()) out += render_grouped(r, o.group_by);
  for (const auto& f : r.findings) {
    if (!o.group_by.empty()) break;  // --summary: counts and each help once instead
    const auto sev = f.severity.value_or(findings::Severity::Error);
    std::string where = escape_for_text(f.location.display());
    out += p.bold() + where + (where.empty() ? "" : ": ") + p.reset();
    out += p.sev(sev) + findings::to_string(sev) + ":" + p.reset() + " " + p.bold() + one_line(f.message) + p.reset();
    out += " [" + f.rule + "]\n";
    for (const auto& n : f.notes) out += "  note: " + n + "\n";
    if (!f.help.empty()) out += "  help: " + f.help + "\n";
    if (f.fix) out += "  fix (" + std::string(f.fix->safety == findings::FixSafety::Safe ? "safe" : "unsafe") +
                      "): " + f.fix->description + "\n";
  }
  if (!o.quiet) {
    if (!r.findings.empty() && !r.subjects.empty()) out += "\n";
    for (const auto& s : r.subjects) {
      out += p.bold() + escape_for_text(s.path) + p.reset() + ": ";
      if (!s.verdict.empty()) out += p.verdict(s.verdict) + s.verdict + p.reset();
      if (!s.loads_on.empty()) out += (s.verdict.empty() ? "" : " — ") + s.loads_on;
      out += "\n";
      if (!s.floor_set_by.empty()) {
        out += "  floor set by: ";
        for (size_t i = 0; i < s.floor_set_by.size(); ++i) {
          if (i == 4 && !o.verbose) {
            out += " (+" + std::to_string(s.floor_set_by.size() - 4) + " more)";
            break;
          }
          out += (i ? ", " : "") + s.floor_set_by[i];
        }
        out += "\n";
      }
      for (const auto& [k, v] : s.facts) {
        if (!o.verbose && v.size() > 160) out += "  " + k + ": " + v.substr(0, 157) + "...\n";
        else out += "  " + k + ": " + v + "\n";
      }
      if (o.verbose)
        for (const auto& l : s.torch) {
          std::string against;
          for (const auto& n : l.resolved_against) against += (against.empty() ? "" : ", ") + n;
          out += "  resolved on " + l.torch + " against: " + (against.empty() ? "(nothing)" : against) +
                 (l.assumed_global ? " (links no PyTorch library: the whole install)" : "") + "\n";
        }
    }
    if (!r.torches.empty() && !r.subjects.empty()) out += torch_matrix(r, p);
    out += count_summary(r);
    if (!r.subjects.empty()) {
      // "in 3 libraries" when all subjects are of one kind, else "in 4 inputs".
      std::string kind = r.subjects[0].kind;
      for (const auto& s : r.subjects)
        if (s.kind != kind) kind = "input";
      // Subject kinds are identifiers ("translation-unit"); the summary is prose.
      std::replace(kind.begin(), kind.end(), '-', ' ');
      std::string noun = kind;
      if (r.subjects.size() != 1) noun = kind.ends_with("y") ? kind.substr(0, kind.size() - 1) + "ies" : kind + "s";
      out += " in " + std::to_string(r.subjects.size()) + " " + noun;
    }
    out += "\n";
  }
  return out;
}

}  // namespace torchabi::reporters
