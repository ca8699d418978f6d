#include "inputs/project/project_copy.h"

#include <array>
#include <cstdlib>
#include <string_view>
#include <system_error>

#include "common/input_error.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& prefix) {
  std::string templ = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(templ.data())) throw InputError(templ, "cannot create a temporary directory");
  // Canonical, so that paths a build script computes from it compare equal.
  path_ = fs::canonical(templ);
}

TempDir::~TempDir() {
  std::error_code ec;
  // A build script may have left read-only directories behind.
  for (auto it = fs::recursive_directory_iterator(path_, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_directory(ec) && !it->is_symlink(ec)) fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  fs::remove_all(path_, ec);
}

namespace {

constexpr std::uintmax_t kLargestFile = 32ull << 20;

// Directories a build writes, or that hold environments and history.
bool skipped_directory(const fs::path& rel) {
  static constexpr std::array<std::string_view, 12> kAnywhere = {
      ".git", ".hg", ".svn", "__pycache__", ".eggs", ".tox", ".nox", ".venv", "venv", "node_modules",
      ".mypy_cache", ".pytest_cache"};
  const std::string name = rel.filename().string();
  for (auto n : kAnywhere)
    if (name == n) return true;
  if (name.ends_with(".egg-info")) return true;
  // setup.py's own output directories, at the top.
  return rel.parent_path().empty() && (name == "build" || name == "dist");
}

bool binary_artifact(const fs::path& p) {
  static constexpr std::array<std::string_view, 24> kExtensions = {
      ".so", ".o", ".a", ".obj", ".lib", ".dll", ".dylib", ".pyd", ".whl", ".pt", ".pth", ".ckpt",
      ".bin", ".safetensors", ".onnx", ".npy", ".npz", ".zip", ".tar", ".gz", ".tgz", ".xz", ".bz2", ".zst"};
  const std::string ext = p.extension().string();
  for (auto e : kExtensions)
    if (ext == e) return true;
  return false;
}

}  // namespace

void copy_project(const fs::path& from, const fs::path& to, std::uintmax_t max_bytes) {
  fs::create_directories(to);
  std::uintmax_t total = 0;
  std::error_code ec;
  fs::recursive_directory_iterator it(from, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw InputError(from.string(), "cannot read the directory: " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) throw InputError(from.string(), "cannot read the directory: " + ec.message());
    const fs::path rel = it->path().lexically_relative(from);
    const fs::path dest = to / rel;
    if (it->is_symlink(ec)) {
      fs::copy_symlink(it->path(), dest, ec);
      continue;
    }
    if (it->is_directory(ec)) {
      if (skipped_directory(rel)) it.disable_recursion_pending();
      else fs::create_directories(dest);
      continue;
    }
    if (!it->is_regular_file(ec) || binary_artifact(rel)) continue;
    const std::uintmax_t size = it->file_size(ec);
    if (ec || size > kLargestFile) continue;
    total += size;
    if (total > max_bytes)
      throw InputError(from.string(), "is larger than " + std::to_string(max_bytes >> 20) +
                                          " MB without version control, build outputs and binary artifacts: too "
                                          "large to copy for running its build script");
    fs::copy_file(it->path(), dest, ec);
    if (ec) throw InputError(it->path().string(), "cannot copy it to " + dest.string() + ": " + ec.message());
  }
}

}  // namespace torchabi::inputs
