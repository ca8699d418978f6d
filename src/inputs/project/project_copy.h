// A throwaway copy of a project's source tree, for running its build code:
// a configure may write into its source directory (badly written projects
// do), and nothing in the user's tree may change. Version control and build
// output directories are left out: they are large and no build reads them.
#pragma once

#include <cstdint>
#include <string>

namespace torchabi::inputs {

class ScratchDir {
public:
  // A new empty directory under the temporary directory ("torchabi-PREFIX-XXXXXX").
  explicit ScratchDir(const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  bool ok() const { return !path_.empty(); }

private:
  std::string path_;
};

// What a copy made to run a build script (setup.py) leaves out besides:
// files no build reads as source (libraries, objects, wheels, archives,
// model weights, any file over 32 MB), and a tree over `max_bytes` is an
// InputError naming `from`. 0: no limit, nothing more left out.
struct CopyLimits {
  std::uintmax_t max_bytes = 0;
  std::string left_out;  // a directory under `from` not copied (copied elsewhere)
};
inline constexpr std::uintmax_t kMaxScriptCopyBytes = 256ull << 20;

// Copies `from` into `to` (which exists), symlinks as symlinks; throws
// std::filesystem::filesystem_error when a file cannot be read.
void copy_project_tree(const std::string& from, const std::string& to, const CopyLimits& limits = {});

// The bytes copy_project_tree(from, ..., limits) would copy with a limit,
// without copying: it stops counting past `stop_after`.
std::uintmax_t project_tree_bytes(const std::string& from, const CopyLimits& limits, std::uintmax_t stop_after);

}  // namespace torchabi::inputs
