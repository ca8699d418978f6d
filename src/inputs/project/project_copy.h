// A throwaway copy of a project's source tree, for running its build code:
// a configure may write into its source directory (badly written projects
// do), and nothing in the user's tree may change. Version control and build
// output directories are left out: they are large and no build reads them.
#pragma once

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

// Copies `from` into `to` (which exists), symlinks as symlinks; throws
// std::filesystem::filesystem_error when a file cannot be read.
void copy_project_tree(const std::string& from, const std::string& to);

}  // namespace torchabi::inputs
