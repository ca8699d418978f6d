// Every rule torchabi can report, with its documentation, loaded from
// rules/checks/<id>.yaml. An analyzer may only emit ids registered here;
// `torchabi explain` and `torchabi rules list` read the same entries.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::findings {

enum class FixKind { None, Safe, Unsafe };

struct RuleDoc {
  std::string id;
  std::string group;        // the id's prefix: binary, source, version, ...
  Severity severity = Severity::Error;
  std::string summary;      // one line
  std::string description;  // why it matters
  std::string instead;      // what to do instead
  FixKind fix = FixKind::None;
  std::string example_fires;  // optional: code or command that triggers it
  std::string example_clean;  // optional: the corrected twin
};

const char* to_string(FixKind k);

class RuleRegistry {
public:
  // Throws InputError naming the file when an entry is malformed.
  static RuleRegistry load(const inputs::RulesSource& src);
  static const RuleRegistry& current();

  const RuleDoc* find(const std::string& id) const;
  const RuleDoc& get(const std::string& id) const;  // throws std::out_of_range
  const std::map<std::string, RuleDoc>& all() const { return rules_; }

  static const std::vector<std::string>& groups();

private:
  std::map<std::string, RuleDoc> rules_;
};

}  // namespace torchabi::findings
