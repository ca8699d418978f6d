#include "inputs/project/environment/lent_setuptools.h"

#include <filesystem>
#include <set>
#include <sstream>

#include "inputs/project/timed_child.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// Where the donor's setuptools lives, and its version: "VERSION\nSITE_DIR".
constexpr const char* kWhereIsSetuptools =
    "import os, setuptools\n"
    "print(getattr(setuptools, '__version__', 'unknown'))\n"
    "print(os.path.dirname(os.path.realpath(setuptools.__path__[0])))\n";

// `pythonpath` first on its path: a lent setuptools may not import in
// another Python (setuptools 65's pkg_resources needs pkgutil.ImpImporter,
// which 3.12 removed).
bool imports_setuptools(const std::string& python, const std::string& pythonpath = "") {
  std::vector<std::string> argv = {python, "-c", "import setuptools, setuptools.command.build_ext"};
  if (!pythonpath.empty()) argv.insert(argv.begin(), {"/usr/bin/env", "PYTHONPATH=" + pythonpath});
  const ChildResult r = run_timed(argv, "/", 30);
  return r.started && !r.timed_out && r.exit_code == 0;
}

}  // namespace

std::optional<LentSetuptools> lend_setuptools(const std::string& python, const std::vector<std::string>& donors,
                                              const std::string& scratch) {
  if (python.empty() || imports_setuptools(python)) return std::nullopt;
  std::set<std::string> tried;
  for (const auto& donor : donors) {
    if (donor == python) continue;
    const ChildResult r = run_timed({donor, "-c", kWhereIsSetuptools}, "/", 30);
    if (!r.started || r.timed_out || r.exit_code != 0) continue;
    std::istringstream lines(r.output);
    std::string version, site;
    if (!std::getline(lines, version) || !std::getline(lines, site)) continue;
    std::error_code ec;
    if (!fs::is_directory(fs::path(site) / "setuptools", ec) || !tried.insert(site).second) continue;
    LentSetuptools lent;
    const fs::path dir = fs::path(scratch) / ("lent-setuptools-" + std::to_string(tried.size()));
    fs::create_directories(dir, ec);
    if (ec) return std::nullopt;
    // The packages, and their metadata (importlib.metadata's version).
    for (auto it = fs::directory_iterator(site, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const bool package = name == "setuptools" || name == "_distutils_hack" || name == "pkg_resources";
      const bool metadata = name.starts_with("setuptools-") && (name.ends_with(".dist-info") || name.ends_with(".egg-info"));
      if (!package && !metadata) continue;
      std::error_code link_ec;
      fs::create_symlink(it->path(), dir / name, link_ec);
      if (link_ec) continue;
      lent.visible.push_back(it->path().string());
    }
    if (!imports_setuptools(python, dir.string())) {
      fs::remove_all(dir, ec);
      continue;
    }
    lent.pythonpath = dir.string();
    lent.fact = "setuptools " + version + " of " + donor + " (" + site + "), as pip's build isolation would install "
                "one: " + python + " has none";
    return lent;
  }
  return std::nullopt;
}

void apply_lent_setuptools(const LentSetuptools& lent, Confinement& c) {
  std::string& path = c.env["PYTHONPATH"];
  path = lent.pythonpath + (path.empty() ? "" : ":" + path);
  c.visible.insert(c.visible.end(), lent.visible.begin(), lent.visible.end());
}

}  // namespace torchabi::inputs
