#include "inputs/project/stated_requirements.h"

#include <filesystem>

#include "common/regex.h"
#include "inputs/project/toml_file.h"

namespace torchabi::inputs {

std::optional<TorchVersion> lowest_torch_allowed(const std::string& requirement) {
  static const Regex kTorch(R"(^\s*torch\s*(\[[^\]]*\])?\s*(>=|~=|==)\s*([0-9]+)\.([0-9]+))");
  const auto m = kTorch.search(requirement);
  if (!m) return std::nullopt;
  return TorchVersion{std::stoi((*m)[3]), std::stoi((*m)[4]), 0};
}

std::vector<StatedRequirement> pyproject_torch_requirements(const std::string& pyproject) {
  std::vector<StatedRequirement> out;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(pyproject, ec)) return out;
  static const Regex kTorch(R"(^\s*torch\s*([\[<>=~!;]|$))");
  try {
    toml::table t = read_toml_file(pyproject, "pyproject.toml");
    const toml::array* deps = t["project"]["dependencies"].as_array();
    if (!deps) return out;
    for (const auto& d : *deps) {
      const auto* s = d.as_string();
      if (!s || !kTorch.contains(s->get())) continue;
      out.push_back({s->get(), pyproject, static_cast<int>(d.source().begin.line)});
    }
  } catch (const std::exception&) {
  }
  return out;
}

}  // namespace torchabi::inputs
