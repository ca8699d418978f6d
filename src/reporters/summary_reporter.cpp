// The grouped text view (--summary, --group-by rule|subject): a report of
// thousands of findings that share a few help texts reads as counts per rule
// (or per subject) with each distinct help printed once.
#include <algorithm>
#include <map>
#include <set>

#include "reporters/reporter.h"

namespace torchabi::reporters {

namespace {

// The subject a finding belongs to: its file (a wheel's member included).
std::string subject_of(const findings::Finding& f) {
  std::string s = f.location.file;
  if (!f.location.member.empty()) s += "!" + f.location.member;
  return s.empty() ? "(no file)" : s;
}

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// Keys in the order they first appear.
struct Ordered {
  std::vector<std::string> keys;
  std::map<std::string, size_t> count;
  void add(const std::string& k) {
    if (count[k]++ == 0) keys.push_back(k);
  }
};

struct RuleGroup {
  findings::Severity severity = findings::Severity::Note;
  size_t count = 0;
  std::set<std::string> subjects;
  Ordered helps;
};

}  // namespace

std::string render_grouped(const findings::Report& r, const std::string& group_by) {
  Ordered rule_order;
  std::map<std::string, RuleGroup> rules;
  for (const auto& f : r.findings) {
    rule_order.add(f.rule);
    auto& g = rules[f.rule];
    g.severity = std::max(g.severity, f.severity.value_or(findings::Severity::Error));
    ++g.count;
    g.subjects.insert(subject_of(f));
    if (!f.help.empty()) g.helps.add(f.help);
  }
  auto rule_line = [&](const std::string& id) {
    const auto& g = rules[id];
    return id + " (" + findings::to_string(g.severity) + "): " + plural(g.count, "finding") + " in " +
           plural(g.subjects.size(), "subject");
  };
  auto help_lines = [&](const std::string& id, const std::string& indent) {
    std::string out;
    const auto& h = rules[id].helps;
    for (const auto& text : h.keys)
      out += indent + "help" + (h.keys.size() > 1 ? " (" + std::to_string(h.count.at(text)) + ")" : "") + ": " +
             text + "\n";
    return out;
  };

  std::string out;
  if (group_by == "subject") {
    Ordered subject_order;
    std::map<std::string, Ordered> per_subject;  // subject -> rules
    for (const auto& f : r.findings) {
      subject_order.add(subject_of(f));
      per_subject[subject_of(f)].add(f.rule);
    }
    for (const auto& s : subject_order.keys) {
      out += s + ": " + plural(subject_order.count[s], "finding") + "\n";
      const auto& rs = per_subject[s];
      for (const auto& id : rs.keys)
        out += "  " + id + " (" + findings::to_string(rules[id].severity) + "): " + std::to_string(rs.count.at(id)) +
               "\n";
    }
    if (!rule_order.keys.empty()) out += "\n";
  }
  // By rule: the counts, then each distinct help once (also after the
  // per-subject view, which names rules only).
  for (const auto& id : rule_order.keys) {
    out += rule_line(id) + "\n";
    out += help_lines(id, "  ");
  }
  return out;
}

}  // namespace torchabi::reporters
