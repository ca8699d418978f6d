#include "analyzers/binary/audit_inputs.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "analyzers/binary/wheel_audit.h"
#include "inputs/conda_archive.h"

namespace torchabi::binary {

namespace fs = std::filesystem;

namespace {

bool has_zip_signature(const std::string& path) {
  char magic[4] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic, 4) && std::memcmp(magic, "PK\x03\x04", 4) == 0;
}

ArtifactKind kind_of_file(const std::string& path) {
  if (inputs::is_conda_package_name(path)) return ArtifactKind::CondaPackage;
  if (path.ends_with(".whl") || has_zip_signature(path)) return ArtifactKind::Wheel;
  return ArtifactKind::Library;
}

void walk(const std::string& dir, ExpandedInputs& out, std::set<fs::path>& seen) {
  std::vector<Artifact> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) {
    out.failures.push_back({dir, "cannot read directory: " + ec.message()});
    return;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      out.failures.push_back({it->path().string(), "cannot read directory: " + ec.message()});
      ec.clear();
      continue;
    }
    std::error_code fec;
    if (!it->is_regular_file(fec)) continue;  // follows file symlinks; directory symlinks are not entered
    const std::string name = it->path().filename().string();
    const bool wheel = name.ends_with(".whl");
    const bool conda = inputs::is_conda_package_name(name);
    if (!wheel && !conda && !is_library_member(name)) continue;
    fs::path canonical = fs::weakly_canonical(it->path(), fec);
    if (!seen.insert(fec ? it->path() : canonical).second) continue;
    found.push_back({it->path().string(),
                     wheel ? ArtifactKind::Wheel : conda ? ArtifactKind::CondaPackage : ArtifactKind::Library,
                     /*named=*/false});
  }
  if (found.empty()) {
    out.failures.push_back({dir, "no shared libraries (*.so, *.dylib, *.pyd, *.dll), wheels (*.whl) or conda packages (*.conda, *.tar.bz2) found in this directory"});
    return;
  }
  std::sort(found.begin(), found.end(), [](const Artifact& a, const Artifact& b) { return a.path < b.path; });
  out.artifacts.insert(out.artifacts.end(), found.begin(), found.end());
}

}  // namespace

ExpandedInputs expand_inputs(const std::vector<std::string>& paths) {
  ExpandedInputs out;
  std::set<fs::path> seen;
  for (const auto& p : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (!fs::exists(st)) {
      out.failures.push_back({p, fs::is_symlink(fs::symlink_status(p, ec)) ? "broken symbolic link" : "no such file or directory"});
      continue;
    }
    if (fs::is_directory(st)) {
      walk(p, out, seen);
      continue;
    }
    out.artifacts.push_back({p, kind_of_file(p)});
  }
  return out;
}

}  // namespace torchabi::binary
