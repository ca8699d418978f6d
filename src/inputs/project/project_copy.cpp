#include "inputs/project/project_copy.h"

#include <cstdlib>
#include <filesystem>
#include <set>

namespace torchabi::inputs {

namespace fs = std::filesystem;

ScratchDir::ScratchDir(const std::string& prefix) {
  std::string templ = (fs::temp_directory_path() / ("torchabi-" + prefix + "-XXXXXX")).string();
  if (mkdtemp(templ.data())) path_ = templ;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  if (!path_.empty()) fs::remove_all(path_, ec);
}

namespace {

// Not part of any build: version control, Python environments and caches,
// and the usual output directories at the top.
bool skipped(const fs::path& dir, bool top) {
  static const std::set<std::string> kAnywhere = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox",
                                                  "_skbuild", ".eggs", ".mypy_cache", ".pytest_cache"};
  static const std::set<std::string> kTop = {"build", "dist", "wheelhouse"};
  const std::string name = dir.filename().string();
  std::error_code ec;
  return kAnywhere.count(name) || (top && kTop.count(name)) || name.ends_with(".egg-info") ||
         fs::exists(dir / "CMakeCache.txt", ec);  // someone's build tree
}

void copy_dir(const fs::path& from, const fs::path& to, bool top) {
  for (const auto& e : fs::directory_iterator(from)) {
    const fs::path target = to / e.path().filename();
    if (e.is_symlink()) {
      fs::copy_symlink(e.path(), target);
    } else if (e.is_directory()) {
      if (skipped(e.path(), top)) continue;
      fs::create_directory(target);
      copy_dir(e.path(), target, false);
    } else if (e.is_regular_file()) {
      fs::copy_file(e.path(), target);
    }
  }
}

}  // namespace

void copy_project_tree(const std::string& from, const std::string& to) { copy_dir(from, to, true); }

}  // namespace torchabi::inputs
