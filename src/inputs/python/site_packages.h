// The distributions installed in a Python environment, read from its
// site-packages directories: each *.dist-info (METADATA, RECORD) and
// *.egg-info (PKG-INFO, installed-files.txt), so `audit --env` and
// `audit NAME` can group libraries by the distribution that installed them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

struct InstalledDistribution {
  std::string name;        // as its metadata spells it
  std::string normalized;  // PEP 503
  std::string version;
  std::string info_dir;            // the .dist-info/.egg-info directory
  std::vector<std::string> files;  // absolute paths it installed, sorted
  // Where `files` came from: "RECORD", "installed-files.txt", or, when the
  // installer kept no list (Debian strips RECORD), "its top-level packages",
  // the directories named by top_level.txt or by the distribution itself.
  std::string files_from;
};

struct PythonEnvironment {
  std::string python;                  // the interpreter asked
  std::string python_version;          // "3.11.2"
  std::vector<std::string> site_dirs;  // in sys.path order
  std::vector<InstalledDistribution> distributions;  // by normalized name; the first site dir wins

  const InstalledDistribution* find(std::string_view name) const;  // any spelling of the name
};

// Asks `python` for its sys.path and reads the distributions there. Throws
// InputError naming `python` when it cannot be run.
PythonEnvironment read_python_environment(const std::string& python);

// The distributions of the given site-packages directories (what
// read_python_environment does once it knows them). Unreadable metadata is
// skipped: an environment always has some.
std::vector<InstalledDistribution> read_distributions(const std::vector<std::string>& site_dirs);

// One distribution: `info_dir` (a .dist-info or .egg-info directory) of the
// site-packages directory `site_dir`. Nothing when its metadata is unreadable
// or names no distribution.
std::optional<InstalledDistribution> read_installed_distribution(const std::string& site_dir,
                                                                 const std::string& info_dir);

}  // namespace torchabi::inputs
