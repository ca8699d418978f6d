#include "cli/torch_promise.h"

#include <filesystem>

#include "common/input_error.h"
#include "findings/config.h"
#include "inputs/api_catalog.h"
#include "inputs/project/stated_requirements.h"
#include "inputs/project/toml_file.h"

namespace fs = std::filesystem;

namespace torchabi::cli {

namespace {

std::optional<source::TorchPromise> from_pyproject(const fs::path& file) {
  try {
    toml::table t = inputs::read_toml_file(file.string(), "pyproject.toml");
    const toml::array* deps = t["project"]["dependencies"].as_array();
    if (!deps) return std::nullopt;
    for (const auto& d : *deps) {
      const auto* s = d.as_string();
      if (!s) continue;
      if (auto v = inputs::lowest_torch_allowed(s->get())) return source::TorchPromise{*v, file.string() + " ('" + s->get() + "')"};
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
