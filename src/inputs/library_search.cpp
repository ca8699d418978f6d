#include "inputs/library_search.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <glob.h>
#include <set>

#include "inputs/elf_view.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> non_empty_fields(std::string_view list, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(sep, start);
    if (end == std::string_view::npos) end = list.size();
    if (end > start) out.emplace_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string expand_origin(std::string dir, const std::string& origin) {
  for (const char* token : {"${ORIGIN}", "$ORIGIN"})
    for (size_t p; (p = dir.find(token)) != std::string::npos;) dir.replace(p, std::string_view(token).size(), origin);
  return dir;
}

// ld.so.conf: one directory a line, "include GLOB" lines (relative to /etc).
void read_conf(const std::string& root, const std::string& file, std::vector<std::string>& out, int depth) {
  if (depth > 8) return;
  std::ifstream in(under_root(root, file));
  for (std::string line; std::getline(in, line);) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line.rfind("include", 0) == 0 && line.size() > 8 && (line[7] == ' ' || line[7] == '\t')) {
      std::string pattern = line.substr(line.find_first_not_of(" \t", 7));
      if (!pattern.starts_with("/")) pattern = "/etc/" + pattern;
      glob_t g{};
      if (glob(under_root(root, pattern).c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) {
          std::string inside = g.gl_pathv[i];
          if (!root.empty() && root != "/") inside = inside.substr(root.size());
          read_conf(root, inside, out, depth + 1);
        }
      globfree(&g);
      continue;
    }
    if (line.starts_with("/")) out.push_back(line);
  }
}

}  // namespace

std::string under_root(const std::string& root, const std::string& path) {
  if (root.empty() || root == "/") return path;
  return (fs::path(root) / fs::path(path).relative_path()).string();
}

LibrarySearch LibrarySearch::of(const ElfView& lib, const std::string& path, const std::string& root) {
  LibrarySearch s;
  s.root = root;
  const std::string origin = fs::path(path).parent_path().string();
  for (const auto& d : non_empty_fields(lib.runpath().empty() ? lib.rpath() : lib.runpath(), ':'))
    s.first.push_back(d.find("ORIGIN") != std::string::npos ? expand_origin(d, origin) : under_root(root, d));
  if (const char* env = std::getenv("LD_LIBRARY_PATH"); env && (root.empty() || root == "/"))
    s.ld_library_path = non_empty_fields(env, ':');
  return s;
}

std::vector<std::string> system_library_dirs(const std::string& root) {
  std::vector<std::string> out;
  read_conf(root, "/etc/ld.so.conf", out, 0);
  // glibc's built-in directories (x86-64 and AArch64, with Debian's multiarch ones).
  for (const char* d : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                        "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
    out.emplace_back(d);
  std::set<std::string> seen;
  std::vector<std::string> unique;
  for (auto& d : out)
    if (seen.insert(d).second) unique.push_back(std::move(d));
  return unique;
}

std::optional<std::string> find_library(std::string_view name, const LibrarySearch& search) {
  std::error_code ec;
  if (name.find('/') != std::string_view::npos) {
    const std::string p = under_root(search.root, std::string(name));
    if (fs::is_regular_file(p, ec)) return p;
    return std::nullopt;
  }
  auto look = [&](const std::vector<std::string>& dirs) -> std::optional<std::string> {
    for (const auto& d : dirs) {
      const std::string p = (fs::path(d) / name).string();
      if (fs::is_regular_file(p, ec)) return p;
    }
    return std::nullopt;
  };
  if (auto p = look(search.first)) return p;
  if (auto p = look(search.ld_library_path)) return p;
  std::vector<std::string> dirs = system_library_dirs(search.root);
  for (auto& d : dirs) d = under_root(search.root, d);
  return look(dirs);
}

}  // namespace torchabi::inputs
