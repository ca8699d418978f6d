#include "inputs/python/torch_distribution.h"
#include "common/json_io.h"
#include "common/regex.h"
#include "common/text.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "inputs/python/site_packages.h"
#include "inputs/wheel_metadata.h"

#include <nlohmann/json.hpp>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// "torch-2.14.1+debian.dist-info": the name part before the version, as
// installers spell it (PEP 491 escapes '-' in names, so the first '-' ends it).
bool names_torch(const std::string& entry) {
  const auto ext = fs::path(entry).extension();
  if (ext != ".dist-info" && ext != ".egg-info") return false;
  const std::string stem = fs::path(entry).stem().string();
  return normalize_project_name(stem.substr(0, stem.find('-'))) == "torch";
}

}  // namespace

std::string TorchDistribution::release() const { return version.substr(0, version.find('+')); }

std::string torch_version_py(const std::string& text) {
  static const Regex re(R"(^__version__\s*(?::\s*str\s*)?=\s*['"]([^'"]+)['"])", Regex::kMultiline);
  const auto m = re.search(text);
  return m ? (*m)[1] : std::string();
}

// A conda environment's record of what each package installed:
// conda-meta/<name>-<version>-<build>.json, {"name", "version", "files"}.
void TorchOwnership::read_conda_meta(const std::string& prefix, Site& s) const {
  std::error_code ec;
  const fs::path meta = fs::path(prefix) / "conda-meta";
  if (!fs::is_directory(meta, ec)) return;
  for (fs::directory_iterator it(meta, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (it->path().extension() != ".json") continue;
    bool candidate = false;
    for (const auto& n : conda_names_) candidate = candidate || entry.starts_with(n + "-");
    if (!candidate) continue;
    const nlohmann::json j = json_io::parse_or_discarded(text::read_file_or_empty(it->path()));
    if (!j.is_object() || !conda_names_.count(j.value("name", "")) || !j.contains("files") || !j["files"].is_array())
      continue;
    size_t added = 0;
    for (const auto& f : j["files"])
      if (f.is_string()) added += s.files.insert((fs::path(prefix) / f.get<std::string>()).lexically_normal().string()).second;
    if (!added) continue;  // a metapackage (pytorch-cpu) installs nothing
    if (!s.torch) {
      TorchDistribution t;
      t.version = j.value("version", "");
      t.package_dir = prefix;
      t.evidence = it->path().string();
      s.torch = std::move(t);
    }
  }
}

const TorchOwnership::Site& TorchOwnership::site(const std::string& dir) {
  if (auto it = sites_.find(dir); it != sites_.end()) return it->second;
  Site s;
  read_conda_meta(dir, s);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (!names_torch(entry) || !it->is_directory(ec)) continue;
    auto d = read_installed_distribution(dir, it->path().string());
    if (!d || d->normalized != "torch" || s.torch) continue;
    TorchDistribution t;
    t.version = d->version;
    t.package_dir = (fs::path(dir) / "torch").string();
    t.evidence = d->info_dir;
    s.torch = std::move(t);
    s.files.insert(d->files.begin(), d->files.end());
    break;
  }
  return sites_.emplace(dir, std::move(s)).first->second;
}

// A directory laid out as the torch package, with or without metadata beside it.
const std::optional<TorchDistribution>& TorchOwnership::package(const std::string& dir) {
  if (auto it = packages_.find(dir); it != packages_.end()) return it->second;
  std::optional<TorchDistribution> out;
  const fs::path p(dir);
  std::error_code ec;
  if (p.filename() == "torch" && fs::is_regular_file(p / "__init__.py", ec) &&
      fs::is_regular_file(p / "version.py", ec)) {
    const Site& parent = site(p.parent_path().string());
    if (parent.torch && parent.torch->package_dir == dir) {
      out = parent.torch;
    } else {
      TorchDistribution t;
      t.version = torch_version_py(text::read_file_or_empty(p / "version.py"));
      t.package_dir = dir;
      t.evidence = (p / "version.py").string();
      out = std::move(t);
    }
  }
  return packages_.emplace(dir, std::move(out)).first->second;
}

const TorchDistribution* TorchOwnership::owner_of(const std::string& path) {
  std::error_code ec;
  const fs::path file = fs::absolute(path, ec).lexically_normal();
  if (ec) return nullptr;
  for (fs::path dir = file.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    // Inside the torch package: torch/lib/libtorch_cpu.so, torch/_C.*.so, bundled CUDA libraries.
    if (const auto& t = package(dir.string())) return &*t;
    // Elsewhere, but installed by torch (its RECORD names functorch/_C.so).
    const Site& s = site(dir.string());
    if (s.torch && s.files.count(file.string())) return &*s.torch;
    if (dir == dir.root_path()) break;
  }
  return nullptr;
}

}  // namespace torchabi::inputs
