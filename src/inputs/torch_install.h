// A PyTorch installation given with `audit --torch PATH`: its shared
// libraries (what names the dynamic linker finds each by, its DT_SONAME,
// DT_NEEDED, versions and export table) and its release, read from the
// install itself. PATH may be
//   - a Python package directory (site-packages/torch: version.py, lib/),
//     or the site-packages directory holding it;
//   - a libtorch directory (build-version or include/, lib/);
//   - a torch wheel (.whl), read in memory, never extracted;
//   - a directory of libraries (Debian's /usr/lib/<triplet>): only the
//     libraries named like PyTorch's (rules/api/torch_libraries.yaml) count.
// Libraries are read on first use and kept: each export table is built once
// however many extensions are resolved against it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/version.h"
#include "inputs/export_table.h"

namespace torchabi::inputs {

// Which file names are PyTorch's own libraries, by stem (the name before
// ".so": "libtorch_cpu" for libtorch_cpu.so.2.14).
struct TorchLibraryNames {
  std::vector<std::string> stems;     // whole stems: "libtorch", "libc10"
  std::vector<std::string> prefixes;  // stem prefixes: "libtorch_", "libc10_"

  bool matches(std::string_view file_name) const;
  static std::string_view stem(std::string_view file_name);
};

struct TorchLibrary {
  std::string label;               // for messages: the path, or "torch.whl!torch/lib/libc10.so"
  std::vector<std::string> names;  // the file names it can be found by (symlinks included), sorted
  std::string stem;                // "libtorch_cpu"

  // Read on first use (TorchInstall::load).
  bool loaded = false;
  std::string soname;
  std::vector<std::string> needed;
  ExportTable exports;

  bool has_name(std::string_view n) const;
};

class TorchInstall {
public:
  enum class Kind { PythonPackage, Libtorch, Wheel, LibraryDirectory };

  // Throws InputError naming `path` when it is missing or holds no PyTorch
  // libraries ("not a PyTorch install: ...").
  static std::unique_ptr<TorchInstall> open(const std::string& path, const TorchLibraryNames& names);
  ~TorchInstall();

  const std::string& path() const { return path_; }
  Kind kind() const { return kind_; }
  const char* kind_name() const;  // "python-package", "libtorch", "wheel", "library-directory"
  // The release as the install states it ("2.14.1", "2.5.1+cu121"); empty
  // when nothing in the install says. `version_source` says where it was read.
  const std::string& version() const { return version_; }
  const std::string& version_source() const { return version_source_; }
  std::optional<TorchVersion> release() const;
  // The CUDA it was built for as the install's files state it: "12.4", "none"
  // (a CPU-only build), or empty when they do not say (the libraries it
  // bundles or needs may still tell: analyzers/binary/torch_cuda.h).
  const std::string& cuda() const { return cuda_; }
  const std::string& cuda_source() const { return cuda_source_; }
  // "torch 2.14.1", or "torch (version unknown)".
  std::string display_name() const;

  size_t size() const { return libraries_.size(); }
  // Names only; call load() before reading the tables.
  const TorchLibrary& library(size_t i) const { return libraries_[i]; }
  // Reads the library's tables on first use. Throws InputError naming the library.
  const TorchLibrary& load(size_t i);

  // The library the dynamic linker finds for a DT_NEEDED entry: one whose
  // file name or soname is `needed`.
  std::optional<size_t> find(std::string_view needed);
  // A library of the same stem (libtorch_cpu for libtorch_cpu.so.1.13), for
  // telling which library of this install a mismatched name stands for.
  std::optional<size_t> find_stem(std::string_view stem) const;
  // Whether `file_name` names a PyTorch library (by the rules' names, or a
  // stem this install ships).
  bool is_torch_name(std::string_view file_name) const;

private:
  struct Source;
  TorchInstall() = default;
  // "2.5.1+cu121" says CUDA 12.1 when no file stated it.
  void read_cuda_from_version();

  std::string path_;
  Kind kind_ = Kind::LibraryDirectory;
  std::string version_, version_source_;
  std::string cuda_, cuda_source_;
  TorchLibraryNames names_;
  std::vector<TorchLibrary> libraries_;
  std::unique_ptr<Source> source_;  // where library bytes come from (files, or the wheel)
};

}  // namespace torchabi::inputs
