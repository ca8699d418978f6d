#include "analyzers/source/version_macros.h"

#include "common/input_error.h"
#include "inputs/rules_source.h"
#include "inputs/tsv_rows.h"

namespace torchabi::source {

VersionMacros VersionMacros::load(const inputs::RulesSource& rules) {
  const char* path = "api/version_macros.tsv";
  return parse(rules.require(path), path);
}

VersionMacros VersionMacros::parse(std::string_view tsv, const std::string& origin) {
  VersionMacros out;
  inputs::for_each_tsv_row(tsv, origin, 3, [&](const std::vector<std::string_view>& c, size_t line) {
    VersionMacro m;
    m.name = std::string(c[0]);
    if (!c[1].starts_with("<=")) {
      m.since = TorchVersion::parse_dotted(c[1]);
      if (!m.since) throw InputError(origin, "line " + std::to_string(line) + ": since must be a release or '<=X.Y'");
    }
    m.header = std::string(c[2]);
    if (m.name.starts_with("TORCH_VERSION_"))
      if (auto v = TorchVersion::parse_dotted(m.name)) m.release_value = v->encoded();
    out.macros_[m.name] = std::move(m);
  });
  if (out.macros_.empty()) throw InputError(origin, "no macros listed");
  return out;
}

const VersionMacro* VersionMacros::find(std::string_view name) const {
  auto it = macros_.find(name);
  return it == macros_.end() ? nullptr : &it->second;
}

bool VersionMacros::defined_at(std::string_view name, TorchVersion release) const {
  const VersionMacro* m = find(name);
  return m && (!m->since || *m->since <= release);
}

}  // namespace torchabi::source
