// Where a PyTorch install states its release. Nothing here is hard-coded:
// every version comes from a file of the install (or of the Debian package
// that owns it), and `source` says which.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

struct InstallVersion {
  std::string version;  // "2.14.1", "2.5.1+cu121"
  std::string source;   // "torch/version.py", "Debian package libtorch2.14 2.14.1+dfsg-1 (...)"
};

// torch/version.py: `__version__ = '2.14.1+debian'` (optionally annotated).
std::optional<std::string> parse_version_py(std::string_view text);
// torch/version.py: `cuda = '12.4'` (optionally annotated, as `cuda:
// Optional[str] = '12.4'`) -> "12.4"; `cuda = None` (a CPU-only build) -> "none".
std::optional<std::string> parse_version_py_cuda(std::string_view text);
// The CUDA a release's local version names: "2.5.1+cu121" -> "12.1",
// "2.5.1+cu118" -> "11.8", "2.5.1+cpu" -> "none"; nullopt otherwise.
std::optional<std::string> cuda_from_local_version(std::string_view version);
// torch/csrc/api/include/torch/version.h: TORCH_VERSION_MAJOR/MINOR/PATCH.
std::optional<std::string> parse_version_header(std::string_view text);
// First line of a Debian changelog: "pytorch (2.14.1+dfsg-1) unstable; ..." -> "2.14.1+dfsg-1".
std::optional<std::string> parse_changelog_version(std::string_view first_line);
// The upstream part of a Debian version: "1:2.14.1+dfsg-1" -> "2.14.1".
std::string debian_upstream_version(std::string_view debian_version);
// The Version of `package` in a dpkg status file, when it is installed.
std::optional<std::string> dpkg_installed_version(std::string_view status, std::string_view package);
// The dotted suffixes a library file name carries: "libc10.so.2.14.1" ->
// {"2.14.1", "2.14", "2"}, longest first.
std::vector<std::string> library_name_versions(std::string_view file_name);

// A Python package directory (site-packages/torch) or a torch wheel's text.
std::optional<InstallVersion> python_package_version(const std::filesystem::path& torch_dir);
// The `cuda` of a Python package directory's version.py.
std::optional<InstallVersion> python_package_cuda(const std::filesystem::path& torch_dir);
// A libtorch directory: build-version, else the C++ API's version.h.
std::optional<InstallVersion> libtorch_version(const std::filesystem::path& root);
// A directory of libraries: the Debian package owning them (dpkg status, or
// its changelog under usr/share/doc), else headers next to them
// (../../include), else the library file names. `library_files` are the
// install's file names (to find the package's soname version).
std::optional<InstallVersion> library_directory_version(const std::filesystem::path& dir,
                                                        const std::vector<std::string>& library_files);

}  // namespace torchabi::inputs
