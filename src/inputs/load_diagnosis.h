// Why a library would not load here, read from ELF facts rather than from the
// loader's message: the C/C++ runtime versions it (or a library it needs)
// requires that this machine's copies do not define (GLIBC_2.38 of libc.so.6,
// GLIBCXX_3.4.32 of libstdc++.so.6, CXXABI_1.3.15, read from .gnu.version_r
// and the runtime's .gnu.version_d), and the DT_NEEDED libraries the loader
// would not find. PyTorch's own libraries are the caller's business (`run`
// stands them in, `audit --torch` resolves them against an install).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

class ElfView;

struct RuntimeShortfall {
  std::string needed_by;             // the library requiring the versions (its path)
  std::string file;                  // "libstdc++.so.6", as .gnu.version_r names it
  std::string machine_copy;          // the copy the loader would use (its path on this machine)
  std::vector<std::string> missing;  // "GLIBCXX_3.4.32", in table order
  std::vector<std::string> newest;   // the copy's newest version of each family missing: "GLIBCXX_3.4.30"
};

struct MissingDependency {
  std::string name;       // the DT_NEEDED entry
  std::string needed_by;  // the library that needs it (its path)
};

struct LoadDiagnosis {
  std::vector<RuntimeShortfall> runtime;
  std::vector<MissingDependency> missing;
  size_t libraries_read = 0;
  bool empty() const { return runtime.empty() && missing.empty(); }
};

// Follows DT_NEEDED from `path` (a path on this machine) through every
// library found that `is_torch` does not claim, looked up as the loader
// would under `root` ("" for this machine). Unreadable libraries are skipped.
LoadDiagnosis diagnose_loading(const std::string& path, const std::string& root,
                               const std::function<bool(std::string_view)>& is_torch);

// The versions `lib` (labelled `label`) requires of the libraries the loader
// would find for it under `root` that those copies do not define: no
// DT_NEEDED is followed (for a library in memory, a wheel's member).
std::vector<RuntimeShortfall> runtime_shortfalls(const ElfView& lib, const std::string& label, const std::string& root,
                                                 const std::function<bool(std::string_view)>& is_torch);

// "GLIBCXX_3.4.30" is newer than "GLIBCXX_3.4.9" (numeric components).
bool version_name_less(std::string_view a, std::string_view b);

// "GLIBCXX" of "GLIBCXX_3.4.32".
std::string_view version_family(std::string_view name);

}  // namespace torchabi::inputs
