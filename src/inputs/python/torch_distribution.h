// PyTorch's own distribution, recognised where it is installed: the files of
// an installed `torch` (its .dist-info's RECORD, or its top-level packages
// when the installer kept no list, as Debian's python3-torch) and any
// directory laid out as the torch package (torch/__init__.py beside
// torch/version.py), and, in a conda environment, the files conda-meta says
// the pytorch or libtorch package installed (libtorch's go to $PREFIX/lib).
// Its libraries — libtorch_cpu.so, libtorch_python.so,
// the CUDA/NCCL runtimes a wheel bundles in torch/lib — are what extensions
// are judged against, never extensions themselves: `audit` reports them as
// one line. Decided from metadata and layout, never from file names.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace torchabi::inputs {

struct TorchDistribution {
  std::string version;      // as its metadata spells it: "2.14.1+debian"; empty when unknown
  std::string package_dir;  // the torch package directory: ".../site-packages/torch"
  std::string evidence;     // what says it is torch: the .dist-info, or torch/version.py

  // "2.14.1" of "2.14.1+cu121": the release, as the one-line report names it.
  std::string release() const;
};

// Answers "is this file PyTorch's own?" for many files, reading each
// directory's metadata once.
class TorchOwnership {
public:
  // `conda_names`: the conda packages that are PyTorch (rules/binary/conda_torch_packages.tsv).
  explicit TorchOwnership(std::set<std::string> conda_names = {"pytorch", "libtorch"})
      : conda_names_(std::move(conda_names)) {}

  // The torch distribution `path` belongs to (as given: a symlink in
  // torch/lib that points elsewhere still belongs to torch), if any.
  const TorchDistribution* owner_of(const std::string& path);

private:
  struct Site {
    std::optional<TorchDistribution> torch;  // a torch .dist-info/.egg-info in this directory
    std::set<std::string> files;             // the files it installed (lexically normal, absolute)
  };
  const Site& site(const std::string& dir);
  const std::optional<TorchDistribution>& package(const std::string& dir);

  void read_conda_meta(const std::string& prefix, Site& s) const;

  std::set<std::string> conda_names_;
  std::map<std::string, Site> sites_;
  std::map<std::string, std::optional<TorchDistribution>> packages_;
};

// `__version__ = '2.14.1'` of a torch/version.py's text; empty when absent.
std::string torch_version_py(const std::string& text);

}  // namespace torchabi::inputs
