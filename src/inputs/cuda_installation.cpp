#include "inputs/cuda_installation.h"
#include "inputs/header_overlay.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// What clang 19's CudaInstallationDetector requires of an installation
// (libdevice only by directory: -nocudalib is passed), plus cuda_runtime.h,
// which its wrapper includes. The first thing missing, or empty.
std::string missing_part(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return "does not exist";
  for (const char* part : {"include/cuda.h", "include/cuda_runtime.h", "bin", "nvvm/libdevice"})
    if (!fs::exists(root / part, ec)) return std::string("no ") + part;
  return {};
}

// "13.0" from `#define CUDA_VERSION 13000` in include/cuda.h.
std::string read_version(const fs::path& root) {
  std::ifstream in(root / "include" / "cuda.h");
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string hash, name;
    long v = 0;
    if (words >> hash >> name >> v && hash == "#define" && name == "CUDA_VERSION")
      return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  }
  return {};
}

// The installation an nvcc belongs to: <root>/bin/nvcc.
std::string root_of_nvcc(const std::string& nvcc) {
  std::error_code ec;
  fs::path p = fs::canonical(nvcc, ec);
  if (ec) p = nvcc;
  return p.parent_path().parent_path().string();
}

std::string nvcc_on_path() {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    fs::path cand = fs::path(dir) / "nvcc";
    if (::access(cand.c_str(), X_OK) == 0) return cand.string();
  }
  return {};
}

}  // namespace

const std::vector<std::string>& cuda_wrapper_headers_newer_cuda_removed() {
  // CUDA 13 removed texture references and with them this header, which
  // __clang_cuda_runtime_wrapper.h of clang 19 still includes unconditionally.
  static const std::vector<std::string> kHeaders = {"texture_fetch_functions.h"};
  return kHeaders;
}

std::string CudaSearch::summary() const {
  if (found) {
    std::string s = "CUDA" + (found->version.empty() ? std::string() : " " + found->version) + " at " + found->root +
                    " (" + found->found_by + ")";
    if (!found->stand_ins.empty()) {
      s += "; empty stand-ins for ";
      for (size_t i = 0; i < found->stand_ins.size(); ++i) s += (i ? ", " : "") + found->stand_ins[i];
      s += ", which clang 19's CUDA wrapper includes and this release no longer ships";
    }
    return s;
  }
  std::string s = "no CUDA installation clang 19 can use";
  for (size_t i = 0; i < rejected.size(); ++i) s += (i ? "; " : ": ") + rejected[i];
  return s;
}

CudaSearch find_cuda_installation(const std::vector<std::string>& args, const std::string& compiler) {
  CudaSearch out;
  std::vector<std::pair<std::string, std::string>> candidates;  // (root, found_by)
  bool explicit_path = false;
  for (const auto& a : args)
    if (a.starts_with("--cuda-path=")) {
      candidates.clear();
      candidates.emplace_back(a.substr(12), "--cuda-path");
      explicit_path = true;
    }
  if (!explicit_path) {
    if (!compiler.empty() && fs::path(compiler).filename().string().find("nvcc") != std::string::npos &&
        compiler.find('/') != std::string::npos)
      candidates.emplace_back(root_of_nvcc(compiler), "the nvcc of the compile command");
    for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
      if (const char* v = std::getenv(env); v && *v) candidates.emplace_back(v, env);
    if (std::string nvcc = nvcc_on_path(); !nvcc.empty()) candidates.emplace_back(root_of_nvcc(nvcc), "nvcc on PATH");
    candidates.emplace_back("/usr/local/cuda", "/usr/local/cuda");
    candidates.emplace_back("/usr/lib/cuda", "/usr/lib/cuda");
  }
  std::vector<std::string> seen;
  for (const auto& [root, by] : candidates) {
    std::string normal = fs::path(root).lexically_normal().string();
    if (normal.size() > 1 && normal.back() == '/') normal.pop_back();
    if (std::find(seen.begin(), seen.end(), normal) != seen.end()) continue;
    seen.push_back(normal);
    std::string missing = missing_part(normal);
    if (!missing.empty()) {
      out.rejected.push_back((by == normal ? normal : by + " " + normal) + ": " + missing);
      continue;
    }
    CudaInstallation c;
    c.root = normal;
    c.found_by = by;
    c.version = read_version(normal);
    std::error_code ec;
    for (const auto& h : cuda_wrapper_headers_newer_cuda_removed())
      if (!fs::exists(fs::path(normal) / "include" / h, ec)) c.stand_ins.push_back(h);
    out.found = std::move(c);
    return out;
  }
  if (candidates.empty()) out.rejected.push_back("no candidate");
  return out;
}

std::string cuda_overlay_dir(const std::vector<std::string>& headers) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& h : headers)
    files.emplace_back(h, "// torchabi stand-in: clang 19's CUDA wrapper includes this header, which this CUDA release no "
                          "longer\n// ships. Intentionally empty.\n");
  return header_overlay_dir("cuda-overlay-v1", files);
}

std::vector<std::string> cuda_parse_args(const CudaInstallation& cuda, const std::vector<std::string>& args) {
  std::vector<std::string> out;
  bool has_path = false;
  for (const auto& a : args) has_path |= a.starts_with("--cuda-path=");
  if (!has_path) out.push_back("--cuda-path=" + cuda.root);
  out.push_back("-nocudalib");
  std::error_code ec;
  const fs::path cccl = fs::path(cuda.root) / "include" / "cccl";
  if (fs::is_directory(cccl, ec)) {
    out.push_back("-isystem");
    out.push_back(cccl.string());
  }
  if (!cuda.stand_ins.empty()) {
    // -idirafter: searched last, so it never hides a header the installation has.
    if (std::string dir = cuda_overlay_dir(cuda.stand_ins); !dir.empty()) {
      out.push_back("-idirafter");
      out.push_back(dir);
    }
  }
  return out;
}

const std::string& host_cuda_include_dir() {
  static const std::string dir = [] {
    const CudaSearch search = find_cuda_installation({});
    return search.found ? search.found->root + "/include" : std::string();
  }();
  return dir;
}

}  // namespace torchabi::inputs
