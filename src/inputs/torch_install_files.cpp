#include "inputs/torch_install_files.h"
#include "common/text.h"

#include <filesystem>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// Far enough for /usr/lib/x86_64-linux-gnu -> /usr/include and
// .../dist-packages/torch -> /usr/include, not so far as to find another install.
constexpr int kLevels = 4;


}  // namespace

TorchInstallFiles locate_torch_install_files(const std::string& path) {
  TorchInstallFiles out;
  const fs::path native = "torchgen/packaged/ATen/native/native_functions.yaml";
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
  for (int level = 0; level <= kLevels && !p.empty(); ++level, p = p.parent_path()) {
    if (out.include_dir.empty()) {
      for (const fs::path& inc : {p / "include", p / "torch" / "include"})
        if (text::exists(inc / "torch/csrc/stable")) {
          out.include_dir = inc.string();
          break;
        }
    }
    if (out.native_functions.empty()) {
      for (const fs::path& n : {p / native, p / "python3/dist-packages" / native, p / "lib/python3/dist-packages" / native})
        if (text::exists(n)) {
          out.native_functions = n.string();
          break;
        }
    }
    if (p == p.root_path()) break;
  }
  return out;
}

}  // namespace torchabi::inputs
