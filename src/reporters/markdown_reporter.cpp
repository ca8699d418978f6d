// A summary sized for a pull-request comment: verdicts first, then findings
// grouped by rule, so a reviewer sees the shape before the detail.
#include <map>

#include "findings/rule_registry.h"
#include "reporters/reporter.h"
#include "reporters/torch_matrix.h"

namespace torchabi::reporters {

static std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string render_markdown(const findings::Report& r, const findings::RuleRegistry& reg) {
  std::string out = "## torchabi " + r.command + "\n\n";
  out += "**" + count_summary(r) + "**\n\n";
  if (!r.subjects.empty()) {
    out += "| " + std::string(r.subjects[0].kind) + " | verdict | loads on | floor set by |\n|---|---|---|---|\n";
    for (const auto& s : r.subjects) {
      std::string by;
      for (size_t i = 0; i < s.floor_set_by.size() && i < 3; ++i) by += (i ? ", " : "") + ("`" + s.floor_set_by[i] + "`");
      if (s.floor_set_by.size() > 3) by += " (+" + std::to_string(s.floor_set_by.size() - 3) + ")";
      out += "| `" + cell(s.path) + "` | " + cell(s.verdict) + " | " + cell(s.loads_on) + " | " + by + " |\n";
    }
    out += "\n";
  }
  // audit --torch: does each library load on each install (measured).
  if (!r.torches.empty() && !r.subjects.empty()) {
    const std::vector<std::string> cols = torch_columns(r);
    out += "| " + std::string(r.subjects[0].kind) + " |";
    for (const auto& c : cols) out += " " + cell(c) + " |";
    out += "\n|---|";
    for (size_t k = 0; k < cols.size(); ++k) out += "---|";
    out += "\n";
    for (const auto& s : r.subjects) {
      out += "| `" + cell(s.path) + "` |";
      for (const auto& t : r.torches) {
        const auto* l = torch_entry(s, t.id);
        out += " " + std::string(!l ? "–" : l->loads ? ":white_check_mark: loads" : ":x: " + cell(torch_cell(*l))) + " |";
      }
      out += "\n";
    }
    out += "\n";
    for (size_t k = 0; k < cols.size(); ++k) {
      const auto& t = r.torches[k];
      out += "- **" + cell(cols[k]) + "**: `" + cell(t.id) + "` (" + t.kind +
             (t.version_source.empty() ? "" : ", version from " + cell(t.version_source)) + ")\n";
    }
    out += "\n";
  }
  std::map<std::string, std::vector<const findings::Finding*>> by_rule;
  for (const auto& f : r.findings) by_rule[f.rule].push_back(&f);
  for (const auto& [rule, list] : by_rule) {
    const auto* doc = reg.find(rule);
    out += "<details><summary><code>" + rule + "</code> — " + std::to_string(list.size()) + " × " +
           (doc ? cell(doc->summary) : std::string()) + "</summary>\n\n";
    if (doc) out += "_Instead:_ " + cell(doc->instead) + "\n\n";
    size_t shown = 0;
    for (const auto* f : list) {
      if (++shown > 50) {
        out += "- … and " + std::to_string(list.size() - 50) + " more\n";
        break;
      }
      out += "- **" + std::string(findings::to_string(f->severity.value_or(findings::Severity::Error))) + "** `" +
             cell(f->location.display()) + "`: " + cell(f->message) + "\n";
    }
    out += "\n</details>\n\n";
  }
  for (const auto& e : r.failures) out += "> :x: could not analyse `" + cell(e.input) + "`: " + cell(e.message) + "\n";
  return out;
}

}  // namespace torchabi::reporters
