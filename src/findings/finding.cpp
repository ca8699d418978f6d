#include "findings/finding.h"

namespace torchabi::findings {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view t) {
  if (t == "note") return Severity::Note;
  if (t == "warning") return Severity::Warning;
  if (t == "error") return Severity::Error;
  return std::nullopt;
}

std::string Location::display() const {
  std::string s = file;
  if (!member.empty()) s += "!" + member;
  if (line > 0) {
    s += ":" + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
  }
  return s;
}

std::string Finding::fingerprint() const {
  // Unit separator keeps fields from running into each other.
  const char sep = '\x1f';
  return rule + sep + location.file + sep + location.member + sep + location.symbol + sep + message;
}

std::vector<std::string> Report::take_facts(std::string_view key) {
  std::vector<std::string> out;
  for (auto& s : subjects) {
    auto& facts = s.facts;
    for (auto it = facts.begin(); it != facts.end();) {
      if (it->first != key) {
        ++it;
        continue;
      }
      out.push_back(std::move(it->second));
      it = facts.erase(it);
    }
  }
  return out;
}

Finding make_finding(std::string rule, Location where, std::string message, std::string help) {
  Finding f;
  f.rule = std::move(rule);
  f.location = std::move(where);
  f.message = std::move(message);
  f.help = std::move(help);
  return f;
}

}  // namespace torchabi::findings
