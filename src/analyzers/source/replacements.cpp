#include "analyzers/source/replacements.h"

#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::source {

const char* to_string(ReplacementFix f) {
  switch (f) {
    case ReplacementFix::Safe: return "safe";
    case ReplacementFix::Unsafe: return "unsafe";
    case ReplacementFix::No: return "no";
  }
  return "no";
}

Replacements Replacements::load(const inputs::RulesSource& src) {
  Replacements r = parse(src.require(kHandWritten), src.describe() + "/" + kHandWritten);
  if (auto derived = src.read(kDerived)) {
    Replacements d = parse(*derived, src.describe() + "/" + kDerived);
    r.entries_.insert(r.entries_.end(), std::make_move_iterator(d.entries_.begin()),
                      std::make_move_iterator(d.entries_.end()));
  }
  return r;
}

Replacements Replacements::parse(std::string_view yaml, const std::string& where) {
  Replacements r;
  try {
    YAML::Node root = YAML::Load(std::string(yaml));
    if (!root["apis"] || !root["apis"].IsSequence()) throw InputError(where, "expected a list under 'apis'");
    size_t i = 0;
    for (const auto& n : root["apis"]) {
      const std::string at = where + ": entry " + std::to_string(i++);
      Replacement e;
      if (!n["legacy"] || !n["legacy"].IsSequence() || n["legacy"].size() == 0)
        throw InputError(at, "'legacy' must be a non-empty list");
      for (const auto& l : n["legacy"]) e.legacy.push_back(l.as<std::string>());
      e.kind = n["kind"] ? n["kind"].as<std::string>() : "";
      if (e.kind.empty()) throw InputError(at, "'kind' is required");
      if (n["replacement"] && !n["replacement"].IsNull()) e.replacement = n["replacement"].as<std::string>();
      if (n["header"]) e.header = n["header"].as<std::string>();
      if (n["since"]) {
        auto v = TorchVersion::parse_dotted(n["since"].as<std::string>());
        if (!v) throw InputError(at, "'since' is not a release: " + n["since"].as<std::string>());
        e.since = v;
      }
      const std::string fix = n["fix"] ? n["fix"].as<std::string>() : "no";
      if (fix == "safe") e.fix = ReplacementFix::Safe;
      else if (fix == "unsafe") e.fix = ReplacementFix::Unsafe;
      else if (fix == "no") e.fix = ReplacementFix::No;
      else throw InputError(at, "'fix' must be safe, unsafe or no");
      const std::string style = n["style"] ? n["style"].as<std::string>() : "rename";
      if (style == "rename") e.style = ReplacementStyle::Rename;
      else if (style == "method-to-function") e.style = ReplacementStyle::MethodToFunction;
      else if (style == "same-method") e.style = ReplacementStyle::SameMethod;
      else if (style == "prefix-args") e.style = ReplacementStyle::PrefixArgs;
      else if (style == "call-template") e.style = ReplacementStyle::CallTemplate;
      else throw InputError(at, "'style' must be rename, method-to-function, same-method, prefix-args or call-template");
      if (e.fix != ReplacementFix::No && !e.replacement) throw InputError(at, "a fix needs a replacement");
      if (n["note"]) e.note = n["note"].as<std::string>();
      r.entries_.push_back(std::move(e));
    }
  } catch (const YAML::Exception& ex) {
    throw InputError(where, std::string("malformed rules: ") + ex.what());
  }
  return r;
}

static std::string expand(const std::string& replacement, std::string_view star) {
  auto p = replacement.find('*');
  if (p == std::string::npos) return replacement;
  return replacement.substr(0, p) + std::string(star) + replacement.substr(p + 1);
}

std::optional<ReplacementMatch> Replacements::find(std::string_view name, std::string_view kind) const {
  const Replacement* best = nullptr;
  std::string_view star;
  size_t best_len = 0;
  bool best_exact = false;
  for (const auto& e : entries_) {
    // C++ names, macros and headers are separate name spaces.
    if (kind.empty() ? (e.kind == "macro" || e.kind == "header") : e.kind != kind) continue;
    for (const auto& l : e.legacy) {
      if (l == name) {
        if (!best_exact) {
          best = &e;
          best_exact = true;
          auto p = name.rfind("::");
          star = p == std::string_view::npos ? name : name.substr(p + 2);
        }
      } else if (!best_exact && l.ends_with('*')) {
        std::string_view prefix(l.data(), l.size() - 1);
        if (name.starts_with(prefix) && prefix.size() > best_len) {
          best = &e;
          best_len = prefix.size();
          star = name.substr(prefix.size());
        }
      }
    }
  }
  if (!best) return std::nullopt;
  ReplacementMatch m;
  m.entry = best;
  if (best->replacement) m.replacement = expand(*best->replacement, star);
  return m;
}

}  // namespace torchabi::source
