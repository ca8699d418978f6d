#include "analyzers/migration/api_lookup.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

#include "analyzers/migration/lint_adapter.h"
#include "common/text.h"
#include "inputs/aten_ops.h"

namespace torchabi::migration {

namespace {

bool looks_like_macro(std::string_view name) {
  if (name.empty() || name.find("::") != std::string_view::npos) return false;
  bool upper = false;
  for (char c : name) {
    if (std::islower(static_cast<unsigned char>(c))) return false;
    if (std::isupper(static_cast<unsigned char>(c))) upper = true;
  }
  return upper;
}

bool looks_like_header(std::string_view name) {
  return name.find('/') != std::string_view::npos || name.ends_with(".h") || name.ends_with(".cuh");
}

std::string_view last_part(std::string_view name) {
  const size_t p = name.rfind("::");
  return p == std::string_view::npos ? name : name.substr(p + 2);
}

}  // namespace

ApiLookup ApiLookup::load(const inputs::RulesSource& rules, const inputs::ApiCatalog& catalog) {
  source::StableApiIndex stable = source::StableApiIndex::load(rules, catalog);
  source::Replacements replacements = source::Replacements::load(rules);
  BlockerCatalog blockers = BlockerCatalog::load(rules);
  AtenFallback aten = AtenFallback::load(rules);
  // The names an unknown one is compared with: every legacy spelling the
  // replacements list (not the patterns), the stable APIs, the blockers' APIs
  // and the ATen operators as at:: functions.
  std::set<std::string> names;
  for (const auto& e : replacements.entries())
    for (const auto& l : e.legacy)
      if (!l.ends_with("*")) names.insert(l);
  for (const auto& s : stable.all()) names.insert(s.name);
  for (const auto& b : blockers.all())
    for (const auto& a : b.apis) names.insert(a);
  const inputs::AtenOps ops = inputs::AtenOps::load(rules);
  for (const auto& [op, _] : ops.all()) names.insert("at::" + op.substr(0, op.find('.')));
  return ApiLookup(catalog, std::move(stable), std::move(replacements), std::move(blockers), std::move(aten),
                   std::vector<std::string>(names.begin(), names.end()));
}

std::optional<ApiFacts> ApiLookup::explain(std::string_view asked) const {
  ApiFacts f;
  std::string name(text::trim(asked));
  if (name.starts_with("::")) name.erase(0, 2);
  f.kind = looks_like_header(name) ? "header" : looks_like_macro(name) ? "macro" : "";
  if (f.kind.empty()) {
    name = normalize_api_name(name);  // at::Tensor::data_ptr<float> -> at::Tensor::data_ptr
    name = tensor_member_name(name, replacements_);
  }
  f.name = name;
  if (f.kind.empty()) f.ns = catalog_->classify(name);
  if (f.kind != "header")
    if (const source::StableApi* s = stable_.find(name)) f.stable = *s;
  if (f.stable) return f;  // a stable API: nothing to replace
  if (auto m = replacements_.find(name, f.kind)) f.replacement = *m;
  // A written operator (at::Tensor::operator-) is the function it calls.
  std::string named = f.kind.empty() ? aten_.named_function(name) : std::string();
  if (!named.empty() && (!f.replacement || !f.replacement->replacement))
    if (auto m = replacements_.find(named)) f.replacement = *m;
  if (f.kind != "header") f.blocker = blockers_.match(named.empty() ? name : named);
  if (f.kind.empty() && !(f.replacement && f.replacement->replacement))
    f.dispatcher = aten_.dispatcher_call(named.empty() ? name : named);
  if (!f.replacement && !f.blocker && !f.dispatcher) return std::nullopt;
  return f;
}

std::vector<std::string> ApiLookup::closest(std::string_view asked, size_t n) const {
  const std::string name(text::trim(asked));
  std::vector<std::tuple<size_t, bool, std::string>> ranked;  // (distance, not the same last part, name)
  const size_t limit = std::max<size_t>(3, name.size() / 3);
  for (const auto& k : names_) {
    const size_t d = text::edit_distance(name, k, true);
    const bool same_last = text::edit_distance(last_part(k), last_part(name), true) == 0;
    if (d <= limit || same_last) ranked.emplace_back(same_last ? 0 : d, !same_last, k);
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> out;
  for (const auto& r : ranked) {
    if (out.size() == n) break;
    out.push_back(std::get<2>(r));
  }
  return out;
}

std::string describe(const ApiFacts& f) {
  std::string out = f.name;
  if (f.stable) {
    out += ": stable, since " + f.stable->since_label() + " (" + f.stable->kind +
           (f.stable->header == "-" ? std::string() : ", " + f.stable->header) + ")\n";
    if (f.ns.kind == inputs::NamespaceKind::Stable) out += "  " + f.ns.ns + ": " + f.ns.why + "\n";
    return out;
  }
  out += ": not stable";
  if (!f.kind.empty()) out += " (" + f.kind + ")";
  else if (f.ns.kind == inputs::NamespaceKind::Unstable) out += " (" + f.ns.ns + ": " + f.ns.why + ")";
  out += "\n";
  if (f.replacement && f.replacement->replacement) {
    const source::Replacement& e = *f.replacement->entry;
    out += "  replacement: " + *f.replacement->replacement;
    if (!e.header.empty()) out += " (" + e.header + ")";
    if (e.since) out += ", since " + e.since->str();
    out += std::string("; rewrite: ") +
           (e.fix == source::ReplacementFix::Safe     ? "mechanical (torchabi migrate --fix)"
            : e.fix == source::ReplacementFix::Unsafe ? "mechanical, to review (--fix --unsafe-fixes)"
                                                      : "by hand") +
           "\n";
    if (!e.note.empty()) out += "  " + e.note + "\n";
  } else if (f.replacement && !f.replacement->entry->note.empty()) {
    out += "  no stable replacement: " + f.replacement->entry->note + "\n";
  }
  if (f.blocker && !(f.replacement && f.replacement->replacement)) {
    out += "  workaround (" + f.blocker->id + ": " + f.blocker->title + "): " + std::string(text::trim(f.blocker->workaround)) + "\n";
    if (f.blocker->added_in) out += "  the stable headers of " + f.blocker->added_in->str() + " add it\n";
  }
  if (f.dispatcher) {
    out += "  dispatcher: " + f.dispatcher->op + (f.dispatcher->overload.empty() ? "" : "." + f.dispatcher->overload) +
           "  " + f.dispatcher->schema + "\n";
    out += "  " + AtenFallback::workaround(*f.dispatcher) + "\n";
  }
  return out;
}

}  // namespace torchabi::migration
