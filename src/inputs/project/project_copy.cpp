#include "inputs/project/project_copy.h"

#include <cstdlib>
#include <filesystem>
#include <set>

#include "common/input_error.h"
#include "common/temp_dirs.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

ScratchDir::ScratchDir(const std::string& prefix) : path_(temp_dirs::make(prefix)) {}

ScratchDir::~ScratchDir() { temp_dirs::remove(path_); }

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

// Build outputs and data that no build compiles: left out of a script's copy.
bool artifact(const fs::path& p, std::uintmax_t size) {
  static const std::set<std::string> kExtensions = {".so", ".o", ".a", ".obj", ".lib", ".dll", ".dylib", ".pyd",
                                                    ".whl", ".pt", ".pth", ".ckpt", ".bin", ".safetensors", ".onnx",
                                                    ".npy", ".npz", ".zip", ".tar", ".gz", ".tgz", ".xz", ".bz2",
                                                    ".zst"};
  return kExtensions.count(p.extension().string()) || size > (32ull << 20);
}

constexpr size_t kMaxMeasuredFiles = 50000;

struct Copier {
  std::string root;
  CopyLimits limits;
  bool measure_only = false;
  std::uintmax_t total = 0;
  size_t files = 0;  // measuring: a tree of countless small files is too large too

  void copy_dir(const fs::path& from, const fs::path& to, bool top) {
    for (const auto& e : fs::directory_iterator(from)) {
      const fs::path target = to / e.path().filename();
      if (e.is_symlink()) {
        if (!measure_only) fs::copy_symlink(e.path(), target);
      } else if (e.is_directory()) {
        if (skipped(e.path(), top) || (!limits.left_out.empty() && e.path() == limits.left_out)) continue;
        if (!measure_only) fs::create_directory(target);
        copy_dir(e.path(), target, false);
      } else if (e.is_regular_file()) {
        if (measure_only && ++files > kMaxMeasuredFiles) {
          total = limits.max_bytes + 1;
          return;
        }
        if (limits.max_bytes) {
          const std::uintmax_t size = e.file_size();
          if (artifact(e.path(), size)) continue;
          total += size;
          if (total > limits.max_bytes) {
            if (measure_only) return;
            throw InputError(root, "is larger than " + std::to_string(limits.max_bytes >> 20) +
                                       " MB without version control, build outputs and binary artifacts: too large "
                                       "to copy for running its build script");
          }
        }
        if (!measure_only) fs::copy_file(e.path(), target);
      }
      if (measure_only && total > limits.max_bytes) return;
    }
  }
};

}  // namespace

void copy_project_tree(const std::string& from, const std::string& to, const CopyLimits& limits) {
  Copier{from, limits}.copy_dir(from, to, true);
}

std::uintmax_t project_tree_bytes(const std::string& from, const CopyLimits& limits, std::uintmax_t stop_after) {
  CopyLimits counting = limits;
  counting.max_bytes = stop_after;
  Copier c{from, counting, true};
  c.copy_dir(from, from, true);
  return c.total;
}

}  // namespace torchabi::inputs
