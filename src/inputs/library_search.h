// Where the dynamic linker would find a DT_NEEDED name, answered from the
// filesystem alone (nothing is loaded): the needing library's DT_RPATH or
// DT_RUNPATH ($ORIGIN expanded), LD_LIBRARY_PATH, the directories of
// /etc/ld.so.conf (and its includes) and the built-in ones. Optionally under
// a root filesystem (`run --root`), whose own ld.so.conf then counts. What
// `run` and `audit --torch` name a load failure by (load_diagnosis.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

class ElfView;

struct LibrarySearch {
  std::string root;                         // "" or "/": this machine
  // Paths on this machine (the root's directories already prefixed):
  std::vector<std::string> first;           // RPATH/RUNPATH of the needing library, $ORIGIN expanded
  std::vector<std::string> ld_library_path;  // this machine's only

  // The search a library at `path` (on this machine) starts with.
  static LibrarySearch of(const ElfView& lib, const std::string& path, const std::string& root);
};

// The file (its path on this machine) the loader would open for `name`, if any.
std::optional<std::string> find_library(std::string_view name, const LibrarySearch& search);

// The directories searched after RPATH/RUNPATH and LD_LIBRARY_PATH, in order.
std::vector<std::string> system_library_dirs(const std::string& root);

// `path` inside `root` as a path on this machine.
std::string under_root(const std::string& root, const std::string& path);

}  // namespace torchabi::inputs
