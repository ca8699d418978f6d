#include "inputs/project/build_toml.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>

#include "common/input_error.h"
#include "inputs/project/toml_file.h"
#include "inputs/project/glob_files.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

bool compiled(const std::string& file) {
  for (const char* ext : {".c", ".cc", ".cpp", ".cxx", ".cu", ".hip"})
    if (file.ends_with(ext)) return true;
  return false;
}

struct BuildTomlReader {
  std::string path;
  std::string dir;
  BuildToml& out;

  void note(int line, const std::string& message) { out.notes.push_back({path, line, message}); }

  std::string absolute(const std::string& p) const {
    return fs::path(p).is_absolute() ? p : (fs::path(dir) / p).lexically_normal().string();
  }

  std::vector<std::string> strings(const toml::table& t, const char* key, const std::string& where) {
    std::vector<std::string> items;
    const toml::node* n = t.get(key);
    if (!n) return items;
    const toml::array* a = n->as_array();
    if (!a) {
      note(line_of(*n), where + " " + key + " is not a list of strings: ignored");
      return items;
    }
    for (const auto& e : *a) {
      if (auto s = e.value<std::string>()) items.push_back(*s);
      else note(line_of(e), "an entry of " + where + " " + key + " is not a string: ignored");
    }
    return items;
  }

  // Sources are paths relative to the project root; kernel-builder takes no
  // patterns, but a '*' is expanded rather than looked up as a name.
  void add_sources(KernelComponent& c, const std::vector<std::string>& files, int line) {
    for (const auto& f : files) {
      if (f.find_first_of("*?[") != std::string::npos) {
        auto matched = glob_files(dir, f);
        if (!matched) note(line, "source pattern '" + f + "' reaches outside the project: ignored");
        else
          for (auto& m : *matched)
            if (compiled(m)) c.sources.push_back(m);
        continue;
      }
      if (compiled(f)) c.sources.push_back(absolute(f));
    }
  }

  void read_stable_abi(const toml::node& n) {
    out.stable_abi_line = line_of(n);
    if (auto s = n.value<std::string>()) {
      out.stable_abi["*"] = *s;
    } else if (const toml::table* t = n.as_table()) {
      for (const auto& [backend, v] : *t) {
        if (auto s = v.value<std::string>()) out.stable_abi[std::string(backend.str())] = *s;
        else note(line_of(v), "[torch] stable-abi." + std::string(backend.str()) + " is not a string: ignored");
      }
    } else {
      note(line_of(n), "[torch] stable-abi is neither a release (\"2.11\") nor a table of them: ignored");
      return;
    }
    for (const auto& [backend, release] : out.stable_abi)
      if (target_version_macro(release).empty())
        note(out.stable_abi_line, "[torch] stable-abi " + (backend == "*" ? "" : backend + " ") + "'" + release +
                                      "' is not a MAJOR.MINOR release: TORCH_TARGET_VERSION is left undefined");
  }

  void read_torch(const toml::table& torch, int line) {
    KernelComponent c;
    c.name = "torch";
    c.line = line;
    add_sources(c, strings(torch, "src", "[torch]"), line);
    for (const auto& i : strings(torch, "include", "[torch]")) c.include_dirs.push_back(absolute(i));
    c.cxx_flags = strings(torch, "cxx-flags", "[torch]");
    c.depends = {"torch"};
    if (const toml::node* abi = torch.get("stable-abi")) read_stable_abi(*abi);
    out.components.push_back(std::move(c));
  }

  void read_kernel(const std::string& key, const toml::table& k) {
    KernelComponent c;
    c.name = key;
    c.line = line_of(k);
    // Before build.toml v3 a kernel had no backend: a language, CUDA by default.
    c.backend = k["backend"].value_or(std::string());
    if (c.backend.empty()) {
      const std::string language = k["language"].value_or(std::string("cuda"));
      c.backend = language == "metal" ? "metal" : "cuda";
    }
    const std::string where = "[kernel." + key + "]";
    add_sources(c, strings(k, "src", where), c.line);
    for (const auto& i : strings(k, "include", where)) c.include_dirs.push_back(absolute(i));
    c.cxx_flags = strings(k, "cxx-flags", where);
    c.cuda_flags = strings(k, c.backend == "rocm" ? "hip-flags" : "cuda-flags", where);
    for (const auto& d : strings(k, "depends", where)) c.depends.push_back(d);
    out.components.push_back(std::move(c));
  }
};

}  // namespace

std::string target_version_macro(const std::string& release) {
  unsigned major = 0, minor = 0;
  const char* b = release.data();
  const char* e = b + release.size();
  auto r1 = std::from_chars(b, e, major);
  if (r1.ec != std::errc() || r1.ptr == e || *r1.ptr != '.') return "";
  auto r2 = std::from_chars(r1.ptr + 1, e, minor);
  if (r2.ec != std::errc() || r2.ptr != e || major > 255 || minor > 255) return "";
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%02X%02X000000000000", major, minor);
  return hex;
}

BuildToml read_build_toml(const std::string& path) {
  const toml::table t = read_toml_file(path, "build.toml");
  BuildToml out;
  BuildTomlReader r{path, fs::path(path).parent_path().string(), out};
  const toml::table* general = t["general"].as_table();
  if (!general) throw InputError(path, "no [general] table: not a kernel-builder build.toml");
  out.name = (*general)["name"].value_or(std::string());
  out.backends = r.strings(*general, "backends", "[general]");
  if (const toml::table* torch = t["torch"].as_table()) r.read_torch(*torch, line_of(*torch));
  if (const toml::table* kernels = t["kernel"].as_table())
    for (const auto& [key, node] : *kernels) {
      if (const toml::table* k = node.as_table()) r.read_kernel(std::string(key.str()), *k);
      else r.note(line_of(node), "[kernel." + std::string(key.str()) + "] is not a table: ignored");
    }
  if (out.backends.empty())
    for (const auto& c : out.components)
      if (!c.backend.empty() && std::find(out.backends.begin(), out.backends.end(), c.backend) == out.backends.end())
        out.backends.push_back(c.backend);
  return out;
}

}  // namespace torchabi::inputs
