#include "analyzers/migration/blockers.h"

#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::migration {

static constexpr const char* kFile = "api/migration_blockers.yaml";
static constexpr const char* kGaps = "api/migration_gaps.yaml";

std::string normalize_api_name(std::string_view name) {
  std::string out;
  int angle = 0, paren = 0;
  for (char c : name) {
    if (c == '<' && paren == 0) ++angle;
    else if (c == '>' && paren == 0 && angle > 0) --angle;
    else if (c == '(') ++paren;
    else if (c == ')' && paren > 0) --paren;
    else if (angle == 0 && paren == 0 && c != ' ') out += c;
  }
  if (out.rfind("::", 0) == 0) out.erase(0, 2);
  return out;
}

BlockerCatalog BlockerCatalog::from_yaml(std::string_view text, const std::string& name, const std::string& key) {
  BlockerCatalog cat;
  const bool gaps = key == "gaps";
  try {
    YAML::Node root = YAML::Load(std::string(text));
    if (!root[key] || !root[key].IsSequence()) throw InputError(name, "expected a '" + key + "' list");
    for (const auto& n : root[key]) {
      Blocker b;
      b.id = n["id"].as<std::string>("");
      b.title = n["title"].as<std::string>("");
      b.workaround = n["workaround"].as<std::string>("");
      while (!b.workaround.empty() && b.workaround.back() == '\n') b.workaround.pop_back();
      if (b.id.empty() || b.title.empty() || b.workaround.empty() || !n["apis"] || !n["apis"].IsSequence())
        throw InputError(name, "blocker '" + b.id + "' needs id, title, apis and workaround");
      for (const auto& a : n["apis"]) b.apis.push_back(normalize_api_name(a.as<std::string>()));
      if (n["partial_since"]) {
        auto v = TorchVersion::parse_dotted(n["partial_since"].as<std::string>());
        if (!v) throw InputError(name, "blocker '" + b.id + "': partial_since is not a release");
        b.partial_since = *v;
      }
      if (n["added_in"]) {
        auto v = TorchVersion::parse_dotted(n["added_in"].as<std::string>());
        if (!v) throw InputError(name, "entry '" + b.id + "': added_in is not a release");
        b.added_in = *v;
      }
      b.source = n["source"].as<std::string>("");
      // A gap is one API's fact: say where it was read.
      if (gaps && b.source.empty()) throw InputError(name, "gap '" + b.id + "' needs a source");
      if (cat.find(b.id)) throw InputError(name, "blocker '" + b.id + "' is listed twice");
      cat.blockers_.push_back(std::move(b));
    }
  } catch (const YAML::Exception& e) {
    throw InputError(name, std::string("malformed YAML: ") + e.what());
  }
  return cat;
}

BlockerCatalog BlockerCatalog::load(const inputs::RulesSource& src) {
  BlockerCatalog cat = from_yaml(src.require(kFile), src.describe() + "/" + kFile);
  if (const auto gaps = src.read(kGaps)) {
    const std::string name = src.describe() + "/" + kGaps;
    cat.merge(from_yaml(*gaps, name, "gaps"), name);
  }
  return cat;
}

void BlockerCatalog::merge(BlockerCatalog more, const std::string& name) {
  for (auto& b : more.blockers_) {
    if (find(b.id)) throw InputError(name, "'" + b.id + "' is listed twice");
    blockers_.push_back(std::move(b));
  }
}

const Blocker* BlockerCatalog::find(std::string_view id) const {
  for (const auto& b : blockers_)
    if (b.id == id) return &b;
  return nullptr;
}

const Blocker* BlockerCatalog::match(std::string_view api) const {
  const std::string name = normalize_api_name(api);
  const Blocker* best = nullptr;
  size_t best_len = 0;
  for (const auto& b : blockers_) {
    for (const auto& a : b.apis) {
      const bool hit = name == a || (name.size() > a.size() + 2 && name.compare(0, a.size(), a) == 0 &&
                                     name.compare(a.size(), 2, "::") == 0);
      if (hit && a.size() > best_len) {  // the most specific listed name wins
        best = &b;
        best_len = a.size();
      }
    }
  }
  return best;
}

}  // namespace torchabi::migration
