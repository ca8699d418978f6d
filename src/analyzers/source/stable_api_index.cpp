#include "analyzers/source/stable_api_index.h"

#include <sstream>

#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::source {

std::optional<std::pair<TorchVersion, bool>> parse_since(std::string_view text) {
  bool baseline = text.starts_with("<=");
  if (baseline) text.remove_prefix(2);
  auto v = TorchVersion::parse_dotted(text);
  if (!v) return std::nullopt;
  return std::pair{*v, baseline};
}

static std::string last_component(std::string_view name) {
  auto p = name.rfind("::");
  return std::string(p == std::string_view::npos ? name : name.substr(p + 2));
}

void StableApiIndex::add(StableApi api, bool override_existing) {
  auto it = by_name_.find(api.name);
  if (it != by_name_.end()) {
    if (override_existing) apis_[it->second] = std::move(api);
    return;
  }
  by_name_.emplace(api.name, apis_.size());
  by_last_component_[last_component(api.name)].push_back(apis_.size());
  apis_.push_back(std::move(api));
}

void StableApiIndex::add_cxx_tsv(std::string_view text, const std::string& where, bool override_existing) {
  std::istringstream in{std::string(text)};
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream ls(line);
    for (std::string col; std::getline(ls, col, '\t');) cols.push_back(col);
    const std::string at = where + ":" + std::to_string(lineno);
    if (cols.size() != 4) throw InputError(at, "expected 4 tab-separated columns (name, since, kind, header)");
    auto since = parse_since(cols[1]);
    if (!since) throw InputError(at, "not a release: '" + cols[1] + "'");
    add(StableApi{cols[0], since->first, since->second, cols[2], cols[3]}, override_existing);
  }
}

StableApiIndex StableApiIndex::load(const inputs::RulesSource& src, const inputs::ApiCatalog& catalog) {
  StableApiIndex idx;
  idx.baseline_ = catalog.baseline();
  for (const auto& f : catalog.c_functions())
    idx.add(StableApi{f.name, f.since, f.baseline, f.is_type ? "type" : "function", f.header}, false);
  const std::string rel = "api/stable_cxx_apis.tsv";
  idx.add_cxx_tsv(src.require(rel), src.describe() + "/" + rel, false);
  return idx;
}

const StableApi* StableApiIndex::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : &apis_[it->second];
}

const StableApi* StableApiIndex::find_unqualified(std::string_view name) const {
  auto it = by_last_component_.find(std::string(name));
  if (it == by_last_component_.end()) return nullptr;
  const StableApi* found = nullptr;
  for (size_t i : it->second) {
    const StableApi& a = apis_[i];
    if (a.name.find("::") != std::string::npos && !a.name.starts_with("torch::stable::") &&
        !a.name.starts_with("torch::headeronly::"))
      continue;
    if (found && (found->since != a.since || found->baseline != a.baseline)) return nullptr;
    found = &a;
  }
  return found;
}

}  // namespace torchabi::source
