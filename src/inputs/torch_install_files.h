// Where an installed PyTorch keeps what `rules import --torch PATH` reads
// besides its libraries: the stable headers and torchgen's
// native_functions.yaml. Layouts differ: a pip package has torch/include and
// torchgen/ beside torch/; Debian puts the headers in /usr/include and
// torchgen in /usr/lib/python3/dist-packages; a libtorch zip has include/
// and no torchgen. So both are looked for from PATH upwards.
#pragma once

#include <string>

namespace torchabi::inputs {

struct TorchInstallFiles {
  std::string include_dir;       // holds torch/csrc/stable; empty when not found
  std::string native_functions;  // torchgen/packaged/ATen/native/native_functions.yaml; empty when not found
};

// `path` is what the user gave (a package directory, site-packages, a
// libtorch directory, a directory of libraries).
TorchInstallFiles locate_torch_install_files(const std::string& path);

}  // namespace torchabi::inputs
