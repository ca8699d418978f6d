// Every rule torchabi can report, with its documentation, loaded from
// rules/checks/<id>.yaml. An analyzer may only emit ids registered here;
// `torchabi explain` and `torchabi rules list` read the same entries.
// The registry of a run reads an entry when it is first asked for: parsing
// all of them took most of the time of a small audit, which needs only the
// rules its findings name.
#pragma once

#include <map>
#include <memory>
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
  // Reads every entry now. Throws InputError naming the file when one is malformed.
  static RuleRegistry load(const inputs::RulesSource& src);
  // Reads each entry when first asked for (find, get, all); a malformed
  // entry throws then. Safe to use from several threads.
  static RuleRegistry lazy(const inputs::RulesSource& src);
  // The lazy registry of RulesSource::current().
  static const RuleRegistry& current();

  const RuleDoc* find(const std::string& id) const;
  const RuleDoc& get(const std::string& id) const;  // throws std::out_of_range
  const std::map<std::string, RuleDoc>& all() const;  // reads every entry

  static const std::vector<std::string>& groups();

private:
  struct Entries;
  explicit RuleRegistry(std::shared_ptr<Entries> entries);
  std::shared_ptr<Entries> entries_;  // shared by copies; read on demand
};

}  // namespace torchabi::findings
