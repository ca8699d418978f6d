// A project's build code runs in a temporary copy of the project, never in
// the user's tree: whatever it writes or deletes is thrown away with the copy.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace torchabi::inputs {

// A fresh directory under the system's temporary directory ($TMPDIR),
// removed with everything in it when this goes away.
class TempDir {
public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

// The largest project tree copied (without what copy_project leaves out).
inline constexpr std::uintmax_t kMaxProjectCopyBytes = 256ull << 20;

// Copies the tree `from` to `to` (created), without version control
// directories, build outputs (build/, dist/, *.egg-info, __pycache__, virtual
// environments) and binary artifacts (libraries, objects, wheels, archives,
// model weights, any file over 32 MB). Symbolic links are copied as links.
// Throws InputError naming `from` when the rest exceeds `max_bytes`.
void copy_project(const std::filesystem::path& from, const std::filesystem::path& to,
                  std::uintmax_t max_bytes = kMaxProjectCopyBytes);

}  // namespace torchabi::inputs
