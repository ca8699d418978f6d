#include "inputs/torch_install.h"
#include "common/text.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/input_error.h"
#include "common/mapped_file.h"
#include "inputs/elf_view.h"
#include "inputs/torch_install_version.h"
#include "inputs/wheel_archive.h"
#include "inputs/wheel_metadata.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

// Where the bytes of each library come from: files on disk, or members of a
// wheel kept open (mapped) for as long as the install is used.
struct TorchInstall::Source {
  std::vector<std::string> paths;  // directory installs, by library index
  std::unique_ptr<MappedFile> wheel_file;
  std::unique_ptr<WheelArchive> wheel;
  std::vector<const WheelMember*> members;  // wheel installs, by library index
};

namespace {

// "x.so", "libx.so.1", "libx.so.1.13.0": what the dynamic linker loads.
bool is_shared_library_name(std::string_view name) {
  const size_t so = name.find(".so");
  if (so == std::string_view::npos || so == 0) return false;
  std::string_view rest = name.substr(so + 3);
  if (rest.empty()) return true;
  return rest.size() > 1 && rest.front() == '.' && rest.find_first_not_of("0123456789.") == std::string_view::npos;
}

bool has_zip_signature(const std::string& path) {
  char magic[4] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic, 4) && std::memcmp(magic, "PK\x03\x04", 4) == 0;
}

struct Listed {
  std::string path;  // the file that is opened (canonical)
  std::vector<std::string> names;
};

// The shared libraries directly in `dir`, one entry per distinct file with
// every name (symlink) that reaches it. `torch_only`: only PyTorch's names.
std::vector<Listed> list_libraries(const fs::path& dir, const TorchLibraryNames& names, bool torch_only) {
  std::map<std::string, Listed> by_file;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!is_shared_library_name(name) || (torch_only && !names.matches(name))) continue;
    std::error_code fec;
    if (!fs::is_regular_file(it->path(), fec)) continue;  // dangling symlinks, directories
    const std::string real = fs::canonical(it->path(), fec).string();
    if (fec) continue;
    Listed& l = by_file[real];
    l.path = real;
    l.names.push_back(name);
  }
  std::vector<Listed> out;
  for (auto& [_, l] : by_file) {
    std::sort(l.names.begin(), l.names.end());
    out.push_back(std::move(l));
  }
  return out;
}

bool has_torch_library(const fs::path& dir, const TorchLibraryNames& names) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (auto it = fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code fec;
    if (is_shared_library_name(name) && names.matches(name) && fs::is_regular_file(it->path(), fec)) return true;
  }
  return false;
}

}  // namespace

bool TorchLibraryNames::matches(std::string_view file_name) const {
  const std::string_view s = stem(file_name);
  for (const auto& st : stems)
    if (s == st) return true;
  for (const auto& p : prefixes)
    if (s.starts_with(p) && s.size() > p.size()) return true;
  return false;
}

std::string_view TorchLibraryNames::stem(std::string_view file_name) {
  const size_t slash = file_name.rfind('/');
  if (slash != std::string_view::npos) file_name.remove_prefix(slash + 1);
  const size_t so = file_name.find(".so");
  return so == std::string_view::npos ? file_name : file_name.substr(0, so);
}

bool TorchLibrary::has_name(std::string_view n) const {
  return std::find(names.begin(), names.end(), n) != names.end();
}

TorchInstall::~TorchInstall() = default;

const char* TorchInstall::kind_name() const {
  switch (kind_) {
    case Kind::PythonPackage: return "python-package";
    case Kind::Libtorch: return "libtorch";
    case Kind::Wheel: return "wheel";
    case Kind::LibraryDirectory: return "library-directory";
  }
  return "library-directory";
}

std::optional<TorchVersion> TorchInstall::release() const {
  if (version_.empty()) return std::nullopt;
  return TorchVersion::parse_dotted(version_);
}

std::string TorchInstall::display_name() const {
  return version_.empty() ? "torch (version unknown)" : "torch " + version_;
}

std::unique_ptr<TorchInstall> TorchInstall::open(const std::string& path, const TorchLibraryNames& names) {
  std::unique_ptr<TorchInstall> t(new TorchInstall);
  t->path_ = path;
  t->names_ = names;
  t->source_ = std::make_unique<Source>();
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw InputError(path, "no such file or directory");

  if (fs::is_regular_file(st)) {
    if (!path.ends_with(".whl") && !has_zip_signature(path))
      throw InputError(path, "not a PyTorch install: a file that is not a wheel (give a torch wheel, a "
                             "site-packages/torch or libtorch directory, or the directory holding libtorch_cpu.so)");
    Source& src = *t->source_;
    src.wheel_file = std::make_unique<MappedFile>(path);
    src.wheel = std::make_unique<WheelArchive>(src.wheel_file->bytes(), path);
    t->kind_ = Kind::Wheel;
    for (const auto& m : src.wheel->members()) {
      if (!m.name.starts_with("torch/lib/")) continue;
      const std::string base = m.name.substr(10);
      if (base.find('/') != std::string::npos || !is_shared_library_name(base)) continue;
      TorchLibrary lib;
      lib.label = path + "!" + m.name;
      lib.names = {base};
      lib.stem = std::string(TorchLibraryNames::stem(base));
      t->libraries_.push_back(std::move(lib));
      src.members.push_back(&m);
    }
    if (t->libraries_.empty())
      throw InputError(path, "not a PyTorch wheel: it has no torch/lib/*.so libraries");
    for (const auto& m : src.wheel->members()) {
      if (m.name != "torch/version.py") continue;
      const std::string text = src.wheel->read_text(m);
      if (auto v = parse_version_py(text)) {
        t->version_ = *v;
        t->version_source_ = "torch/version.py in the wheel";
      }
      if (auto c = parse_version_py_cuda(text)) {
        t->cuda_ = *c;
        t->cuda_source_ = "torch/version.py in the wheel (cuda)";
      }
    }
    if (t->version_.empty())
      if (const WheelMember* md = src.wheel->metadata()) {
        WheelMetadata meta = parse_wheel_metadata(src.wheel->read_text(*md));
        if (!meta.version.empty()) {
          t->version_ = meta.version;
          t->version_source_ = md->name;
        }
      }
    t->read_cuda_from_version();
    return t;
  }
  if (!fs::is_directory(st)) throw InputError(path, "not a PyTorch install: neither a directory nor a wheel");

  const fs::path dir(path);
  fs::path lib_dir;
  bool torch_only = false;
  std::optional<InstallVersion> version, cuda;
  if (text::exists(dir / "version.py") && has_torch_library(dir / "lib", names)) {
    t->kind_ = Kind::PythonPackage;
    lib_dir = dir / "lib";
    version = python_package_version(dir);
    cuda = python_package_cuda(dir);
  } else if (text::exists(dir / "torch/version.py") && has_torch_library(dir / "torch/lib", names)) {
    t->kind_ = Kind::PythonPackage;
    lib_dir = dir / "torch/lib";
    version = python_package_version(dir / "torch");
    cuda = python_package_cuda(dir / "torch");
  } else if (has_torch_library(dir / "lib", names)) {
    t->kind_ = Kind::Libtorch;
    lib_dir = dir / "lib";
    version = libtorch_version(dir);
  } else if (has_torch_library(dir, names)) {
    // torch/lib or libtorch/lib given directly: the package around it says which release.
    lib_dir = dir;
    const fs::path parent = fs::absolute(dir).lexically_normal().parent_path();
    if (text::exists(parent / "version.py")) {
      t->kind_ = Kind::PythonPackage;
      version = python_package_version(parent);
      cuda = python_package_cuda(parent);
    } else if (text::exists(parent / "build-version") || text::exists(parent / "include/torch")) {
      t->kind_ = Kind::Libtorch;
      version = libtorch_version(parent);
    } else {
      // A shared directory (/usr/lib/<triplet>): only PyTorch's own libraries belong to the install.
      t->kind_ = Kind::LibraryDirectory;
      torch_only = true;
    }
  } else {
    throw InputError(path, "not a PyTorch install: no PyTorch libraries (libtorch_cpu.so, libc10.so, ...) in it "
                           "or in its lib/ or torch/lib/ directory");
  }

  std::vector<std::string> files;
  for (auto& l : list_libraries(lib_dir, names, torch_only)) {
    TorchLibrary lib;
    lib.label = (lib_dir / l.names.front()).string();
    lib.stem = std::string(TorchLibraryNames::stem(l.names.front()));
    lib.names = l.names;
    // Version detection also looks at the real file's name (libc10.so.2.14.1 behind torch/lib/libc10.so).
    for (const auto& n : l.names)
      if (names.matches(n)) files.push_back(n);
    if (names.matches(l.path)) files.push_back(fs::path(l.path).filename().string());
    t->source_->paths.push_back(l.path);
    t->libraries_.push_back(std::move(lib));
  }
  if (!version) version = library_directory_version(lib_dir, files);
  if (version) {
    t->version_ = version->version;
    t->version_source_ = version->source;
  }
  if (cuda) {
    t->cuda_ = cuda->version;
    t->cuda_source_ = cuda->source;
  }
  t->read_cuda_from_version();
  return t;
}

void TorchInstall::read_cuda_from_version() {
  if (!cuda_.empty()) return;
  if (auto c = cuda_from_local_version(version_)) {
    cuda_ = *c;
    cuda_source_ = "the release's local version (+" + version_.substr(version_.find('+') + 1) + ")";
  }
}

const TorchLibrary& TorchInstall::load(size_t i) {
  TorchLibrary& lib = libraries_.at(i);
  if (lib.loaded) return lib;
  auto fill = [&](const ElfView& elf) {
    lib.soname = std::string(elf.soname());
    lib.needed.clear();
    for (auto n : elf.needed()) lib.needed.emplace_back(n);
    lib.exports = ExportTable::read(elf);
  };
  if (kind_ == Kind::Wheel) {
    const std::vector<std::byte> bytes = source_->wheel->read(*source_->members[i]);
    ElfView elf(bytes, lib.label);
    fill(elf);
  } else {
    MappedFile file(source_->paths[i]);
    ElfView elf(file.bytes(), lib.label);
    fill(elf);
  }
  lib.loaded = true;
  return lib;
}

std::optional<size_t> TorchInstall::find(std::string_view needed) {
  for (size_t i = 0; i < libraries_.size(); ++i)
    if (libraries_[i].has_name(needed)) return i;
  // The dynamic linker also matches an already loaded library by its soname
  // (torch/lib/libc10.so whose soname is libc10.so.2.14). Only libraries of
  // the same stem can carry that soname, so only those are read.
  const std::string_view stem = TorchLibraryNames::stem(needed);
  for (size_t i = 0; i < libraries_.size(); ++i) {
    if (libraries_[i].stem != stem) continue;
    try {
      if (load(i).soname == needed) return i;
    } catch (const InputError&) {
      // An unreadable library is reported when it is resolved against.
    }
  }
  return std::nullopt;
}

std::optional<size_t> TorchInstall::find_stem(std::string_view stem) const {
  for (size_t i = 0; i < libraries_.size(); ++i)
    if (libraries_[i].stem == stem) return i;
  return std::nullopt;
}

bool TorchInstall::is_torch_name(std::string_view file_name) const {
  return names_.matches(file_name) || find_stem(TorchLibraryNames::stem(file_name)).has_value();
}

}  // namespace torchabi::inputs
