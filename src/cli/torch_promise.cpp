#include "cli/torch_promise.h"

#include <filesystem>
#include <regex>

#include "common/input_error.h"
#include "findings/config.h"
#include "inputs/api_catalog.h"
#include "inputs/project/toml_file.h"

namespace fs = std::filesystem;

namespace torchabi::cli {

namespace {

// "torch>=2.10", "torch ~= 2.10.0", "torch==2.10.*": the lowest release allowed.
std::optional<TorchVersion> lowest_allowed(const std::string& requirement) {
  static const std::regex kTorch(R"(^\s*torch\s*(\[[^\]]*\])?\s*(>=|~=|==)\s*([0-9]+)\.([0-9]+))");
  std::smatch m;
  if (!std::regex_search(requirement, m, kTorch)) return std::nullopt;
  return TorchVersion{std::stoi(m[3].str()), std::stoi(m[4].str()), 0};
}

std::optional<source::TorchPromise> from_pyproject(const fs::path& file) {
  try {
    toml::table t = inputs::read_toml_file(file.string(), "pyproject.toml");
    const toml::array* deps = t["project"]["dependencies"].as_array();
    if (!deps) return std::nullopt;
    for (const auto& d : *deps) {
      const auto* s = d.as_string();
      if (!s) continue;
      if (auto v = lowest_allowed(s->get())) return source::TorchPromise{*v, file.string() + " ('" + s->get() + "')"};
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

std::optional<source::TorchPromise> find_torch_promise(const std::string& config_path,
                                                       const std::vector<std::string>& inputs) {
  findings::Config config =
      config_path.empty() ? findings::Config::discover(inputs) : findings::Config::load_file(config_path);
  if (config.target_version) {
    TargetVersionReading r = read_target_version(*config.target_version, inputs::ApiCatalog::current().latest());
    if (r.version) return source::TorchPromise{*r.version, config.source + " (target-version " + *config.target_version + ")"};
  }
  for (const auto& input : inputs) {
    std::error_code ec;
    fs::path dir = fs::absolute(input, ec);
    if (ec) continue;
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    for (; !dir.empty(); dir = dir.parent_path()) {
      if (fs::is_regular_file(dir / "pyproject.toml", ec))
        if (auto p = from_pyproject(dir / "pyproject.toml")) return p;
      if (fs::exists(dir / ".git", ec) || dir == dir.root_path()) break;
    }
  }
  return std::nullopt;
}

}  // namespace torchabi::cli
