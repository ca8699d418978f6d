#include "inputs/python/site_packages.h"
#include "common/text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/input_error.h"
#include "inputs/python/run_python.h"
#include "inputs/wheel_metadata.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// The version, then every sys.path entry that is a directory of installed
// packages (site-packages in a venv or a pip install, dist-packages on Debian).
constexpr const char* kQuery =
    "import sys, os\n"
    "print(sys.version.split()[0])\n"
    "for p in sys.path:\n"
    "    if os.path.isdir(p) and os.path.basename(p.rstrip('/')) in ('site-packages', 'dist-packages'): print(p)\n";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

// RECORD is CSV: "path,hash,size"; a path with a comma is quoted.
std::string record_path(const std::string& line) {
  if (line.empty() || line.front() != '"') return line.substr(0, line.find(','));
  std::string out;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '"') {
      if (i + 1 < line.size() && line[i + 1] == '"') {
        out += '"';
        ++i;
        continue;
      }
      break;
    }
    out += line[i];
  }
  return out;
}

void add_tree(const fs::path& dir, std::vector<std::string>& files) {
  std::error_code ec;
  if (fs::is_regular_file(dir, ec)) {
    files.push_back(dir.string());
    return;
  }
  if (!fs::is_directory(dir, ec)) return;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; it != end;
       it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  }
}

// Top-level packages when no file list survived: top_level.txt, else the
// distribution's own name as a package or module ("torch", "torch.py").
void add_top_level(const fs::path& site, const fs::path& info, InstalledDistribution& d) {
  std::vector<std::string> tops;
  if (fs::is_regular_file(info / "top_level.txt")) tops = lines_of(text::read_file_or_empty(info / "top_level.txt"));
  if (tops.empty()) {
    std::string mod = d.name;
    std::replace(mod.begin(), mod.end(), '-', '_');
    tops.push_back(mod);
  }
  for (const auto& t : tops) {
    if (t.find("..") != std::string::npos || t.front() == '/') continue;
    add_tree(site / t, d.files);
    for (const char* ext : {".py", ".so"}) add_tree(site / (t + ext), d.files);
  }
  d.files_from = "its top-level packages";
}

std::optional<InstalledDistribution> read_one(const fs::path& site, const fs::path& info) {
  const bool egg = info.extension() == ".egg-info";
  const fs::path meta = info / (egg ? "PKG-INFO" : "METADATA");
  std::error_code ec;
  if (!fs::is_regular_file(meta, ec)) return std::nullopt;
  const WheelMetadata md = parse_wheel_metadata(text::read_file_or_empty(meta));
  if (md.name.empty()) return std::nullopt;
  InstalledDistribution d;
  d.name = md.name;
  d.normalized = normalize_project_name(md.name);
  d.version = md.version;
  d.info_dir = info.string();
  // RECORD paths are relative to the site dir; installed-files.txt to the egg-info.
  const fs::path list = egg ? info / "installed-files.txt" : info / "RECORD";
  if (fs::is_regular_file(list, ec)) {
    const fs::path base = egg ? info : site;
    for (const auto& line : lines_of(text::read_file_or_empty(list))) {
      const std::string rel = egg ? line : record_path(line);
      if (rel.empty()) continue;
      const fs::path p = (fs::path(rel).is_absolute() ? fs::path(rel) : base / rel).lexically_normal();
      d.files.push_back(p.string());
    }
    d.files_from = egg ? "installed-files.txt" : "RECORD";
  } else {
    add_top_level(site, info, d);
  }
  std::sort(d.files.begin(), d.files.end());
  d.files.erase(std::unique(d.files.begin(), d.files.end()), d.files.end());
  return d;
}

}  // namespace

const InstalledDistribution* PythonEnvironment::find(std::string_view name) const {
  const std::string n = normalize_project_name(name);
  for (const auto& d : distributions)
    if (d.normalized == n) return &d;
  return nullptr;
}

std::vector<InstalledDistribution> read_distributions(const std::vector<std::string>& site_dirs) {
  std::vector<InstalledDistribution> out;
  std::set<std::string> seen;
  for (const auto& site : site_dirs) {
    std::error_code ec;
    std::vector<fs::path> infos;
    for (fs::directory_iterator it(site, ec), end; !ec && it != end; it.increment(ec)) {
      const auto ext = it->path().extension();
      if ((ext == ".dist-info" || ext == ".egg-info") && it->is_directory(ec)) infos.push_back(it->path());
    }
    std::sort(infos.begin(), infos.end());
    for (const auto& info : infos) {
      auto d = read_one(site, info);
      // The first site dir on sys.path shadows the later ones, as import does.
      if (d && seen.insert(d->normalized).second) out.push_back(std::move(*d));
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.normalized < b.normalized; });
  return out;
}

std::optional<InstalledDistribution> read_installed_distribution(const std::string& site_dir,
                                                                 const std::string& info_dir) {
  return read_one(site_dir, info_dir);
}

PythonEnvironment read_python_environment(const std::string& python) {
  const auto lines = run_python_query(python, kQuery);
  if (!lines || lines->empty())
    throw InputError(python, "cannot run it as a Python interpreter (give one with --env PYTHON or --python PYTHON)");
  PythonEnvironment env;
  env.python = python;
  env.python_version = lines->front();
  env.site_dirs.assign(lines->begin() + 1, lines->end());
  env.distributions = read_distributions(env.site_dirs);
  return env;
}

}  // namespace torchabi::inputs
