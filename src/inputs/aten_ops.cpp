#include "inputs/aten_ops.h"

#include <sstream>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::inputs {

AtenOps AtenOps::load(const RulesSource& rules) {
  const char* path = "schema/aten_ops.tsv";
  return parse(rules.require(path), path);
}

AtenOps AtenOps::parse(const std::string& tsv, const std::string& origin) {
  AtenOps out;
  std::istringstream in(tsv);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.rfind("# release: ", 0) == 0) out.release_ = line.substr(11);
    if (line.empty() || line[0] == '#') continue;
    size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos) throw InputError(origin, "line " + std::to_string(n) + ": expected 3 tab-separated columns");
    std::string kind = line.substr(a + 1, b - a - 1);
    if (kind != "composite" && kind != "backend")
      throw InputError(origin, "line " + std::to_string(n) + ": kernel must be 'composite' or 'backend'");
    out.ops_[line.substr(0, a)] = {line.substr(b + 1), kind == "composite"};
  }
  if (out.ops_.empty()) throw InputError(origin, "no operators listed");
  if (out.release_.empty()) throw InputError(origin, "missing '# release: X' line");
  return out;
}

const AtenOp* AtenOps::find(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : &it->second;
}

std::vector<std::string> AtenOps::overloads_of(const std::string& name) const {
  std::vector<std::string> out;
  for (auto it = ops_.lower_bound(name); it != ops_.end(); ++it) {
    const std::string& k = it->first;
    if (k.compare(0, name.size(), name) != 0) break;
    if (k.size() == name.size() || k[name.size()] == '.') out.push_back(k);
  }
  return out;
}

}  // namespace torchabi::inputs
