#include "analyzers/migration/alternatives.h"

#include <cctype>
#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::migration {

Alternatives Alternatives::load(const inputs::RulesSource& src) {
  const std::string rel = "api/alternatives.yaml";
  const auto text = src.read(rel);
  return text ? parse(*text, src.describe() + "/" + rel) : Alternatives{};
}

Alternatives Alternatives::parse(std::string_view yaml, const std::string& where) {
  Alternatives out;
  try {
    const YAML::Node root = YAML::Load(std::string(yaml));
    if (!root["alternatives"] || !root["alternatives"].IsSequence())
      throw InputError(where, "expected a list under 'alternatives'");
    size_t i = 0;
    for (const auto& n : root["alternatives"]) {
      const std::string at = where + ": entry " + std::to_string(i++);
      Alternative a;
      for (const char* key : {"for", "use", "since", "how"})
        if (!n[key] || n[key].as<std::string>().empty()) throw InputError(at, std::string("'") + key + "' is required");
      a.for_api = n["for"].as<std::string>();
      a.use = n["use"].as<std::string>();
      a.how = n["how"].as<std::string>();
      const auto v = TorchVersion::parse_dotted(n["since"].as<std::string>());
      if (!v) throw InputError(at, "'since' is not a release: " + n["since"].as<std::string>());
      a.since = *v;
      out.entries_.push_back(std::move(a));
    }
  } catch (const YAML::Exception& e) {
    throw InputError(where, std::string("malformed rules: ") + e.what());
  }
  return out;
}

const Alternative* Alternatives::find(std::string_view replacement) const {
  // "STD_TORCH_CHECK(false, "-style replacements carry the start of a call.
  size_t n = 0;
  while (n < replacement.size() && (std::isalnum(static_cast<unsigned char>(replacement[n])) || replacement[n] == '_' ||
                                    replacement[n] == ':'))
    ++n;
  replacement = replacement.substr(0, n);
  for (const auto& a : entries_)
    if (a.for_api == replacement) return &a;
  return nullptr;
}

void apply_alternatives(std::vector<ApiUse>& uses, const Alternatives& alternatives) {
  for (auto& u : uses) {
    if (u.replacement.empty() || !u.since || u.disposition == Disposition::Blocked) continue;
    const Alternative* a = alternatives.find(u.replacement);
    if (!a || !(a->since < *u.since)) continue;
    u.alternative = a->use;
    u.alternative_since = a->since;
    u.alternative_how = a->how;
    u.note += (u.note.empty() ? "" : " ") + std::string("For TORCH_TARGET_VERSION ") + a->since.str() + ": " + a->use +
              " (" + a->since.str() + ") " + a->how + " " + u.replacement + " needs " + u.since->str() + ".";
  }
}

}  // namespace torchabi::migration
