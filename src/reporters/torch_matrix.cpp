#include "reporters/torch_matrix.h"

#include <map>

namespace torchabi::reporters {

using nlohmann::json;

std::vector<std::string> torch_columns(const findings::Report& r) {
  std::map<std::string, int> seen;
  for (const auto& t : r.torches) ++seen[t.version];
  std::vector<std::string> out;
  for (size_t i = 0; i < r.torches.size(); ++i) {
    const auto& t = r.torches[i];
    std::string label = t.version.empty() ? "torch (version unknown)" : "torch " + t.version;
    if (seen[t.version] > 1) label = "[" + std::to_string(i + 1) + "] " + label;
    out.push_back(label);
  }
  return out;
}

std::string torch_cell(const findings::TorchLoad& l) {
  if (l.loads) return "yes";
  std::string what;
  auto add = [&](size_t n, const char* one, const char* many) {
    if (n) what += (what.empty() ? "" : ", ") + std::to_string(n) + " " + (n == 1 ? one : many);
  };
  add(l.missing_libraries.size(), "library", "libraries");
  add(l.missing_symbols.size(), "symbol", "symbols");
  add(l.missing_versions.size(), "version", "versions");
  return "no: " + what + " missing";
}

const findings::TorchLoad* torch_entry(const findings::Subject& s, const std::string& id) {
  for (const auto& l : s.torch)
    if (l.torch == id) return &l;
  return nullptr;
}

json torch_install_json(const findings::TorchInstallInfo& t) {
  return {{"id", t.id},           {"kind", t.kind}, {"version", t.version.empty() ? json(nullptr) : json(t.version)},
          {"version_source", t.version_source}, {"libraries", t.libraries}};
}

json torch_load_json(const findings::TorchLoad& l) {
  json libs = json::array(), versions = json::array(), symbols = json::array();
  for (const auto& m : l.missing_libraries) libs.push_back({{"needed", m.needed}, {"available", m.available}});
  for (const auto& m : l.missing_versions)
    versions.push_back({{"library", m.library}, {"version", m.version}, {"defined", m.defined}});
  for (const auto& m : l.missing_symbols)
    symbols.push_back({{"symbol", m.symbol}, {"demangled", m.demangled}, {"version", m.version}, {"group", m.group},
                       {"reason", m.reason}, {"candidates", m.candidates}});
  json o = {{"version", l.version.empty() ? json(nullptr) : json(l.version)},
            {"loads", l.loads},
            {"missing_libraries", libs},
            {"missing_versions", versions},
            {"missing_symbols", symbols},
            {"resolved_against", l.resolved_against},
            {"assumed_global", l.assumed_global}};
  o["rules_predict_loads"] = l.rules_predict_loads ? json(*l.rules_predict_loads) : json(nullptr);
  o["agrees_with_rules"] = l.rules_predict_loads ? json(*l.rules_predict_loads == l.loads) : json(nullptr);
  return o;
}

}  // namespace torchabi::reporters
