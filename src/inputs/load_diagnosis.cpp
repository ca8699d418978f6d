#include "inputs/load_diagnosis.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "common/input_error.h"
#include "common/mapped_file.h"
#include "inputs/elf_view.h"
#include "inputs/library_search.h"

namespace torchabi::inputs {

namespace {

struct Opened {
  std::unique_ptr<MappedFile> file;
  std::unique_ptr<ElfView> elf;
};

std::optional<Opened> open(const std::string& path) {
  try {
    Opened o;
    o.file = std::make_unique<MappedFile>(path);
    o.elf = std::make_unique<ElfView>(o.file->bytes(), path);
    return o;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::vector<unsigned long> numbers(std::string_view name) {
  std::vector<unsigned long> out;
  const size_t us = name.rfind('_');
  std::string_view rest = us == std::string_view::npos ? name : name.substr(us + 1);
  unsigned long cur = 0;
  bool any = false;
  for (char c : rest) {
    if (c >= '0' && c <= '9') {
      cur = cur * 10 + static_cast<unsigned long>(c - '0');
      any = true;
    } else if (c == '.') {
      out.push_back(cur);
      cur = 0;
    }
  }
  if (any) out.push_back(cur);
  return out;
}

using Definitions = std::map<std::string, std::optional<std::vector<std::string>>>;  // copy -> its version names

std::vector<RuntimeShortfall> shortfalls(const ElfView& elf, const std::string& lib, const LibrarySearch& search,
                                         const std::function<bool(std::string_view)>& is_torch, Definitions& defs,
                                         std::set<std::pair<std::string, std::string>>& reported) {
  std::map<std::string, RuntimeShortfall> short_by_file;
  std::map<std::string, std::optional<std::string>> found;
  for (const auto& need : elf.version_needs()) {
    if (need.weak || is_torch(need.file)) continue;
    auto f = found.find(std::string(need.file));
    if (f == found.end()) f = found.emplace(std::string(need.file), find_library(need.file, search)).first;
    if (!f->second) continue;  // missing altogether: another finding
    const std::string& p = *f->second;
    auto d = defs.find(p);
    if (d == defs.end()) {
      std::optional<std::vector<std::string>> names;
      if (auto c = open(p); c && c->elf->defines_versions())
        names = std::vector<std::string>(c->elf->version_definitions().begin(), c->elf->version_definitions().end());
      d = defs.emplace(p, std::move(names)).first;
    }
    if (!d->second) continue;  // no version definitions: nothing to compare
    const auto& have = *d->second;
    if (std::find(have.begin(), have.end(), need.name) != have.end()) continue;
    if (!reported.emplace(std::string(need.file), std::string(need.name)).second) continue;
    RuntimeShortfall& s = short_by_file[std::string(need.file)];
    s.needed_by = lib;
    s.file = std::string(need.file);
    s.machine_copy = p;
    s.missing.emplace_back(need.name);
    const std::string_view family = version_family(need.name);
    std::string newest;
    for (const auto& h : have)
      if (version_family(h) == family && (newest.empty() || version_name_less(newest, h))) newest = h;
    if (!newest.empty() && std::find(s.newest.begin(), s.newest.end(), newest) == s.newest.end())
      s.newest.push_back(newest);
  }
  std::vector<RuntimeShortfall> out;
  for (auto& [file, s] : short_by_file) out.push_back(std::move(s));
  return out;
}

}  // namespace

std::vector<RuntimeShortfall> runtime_shortfalls(const ElfView& lib, const std::string& label, const std::string& root,
                                                 const std::function<bool(std::string_view)>& is_torch) {
  LibrarySearch search;
  search.root = root;
  Definitions defs;
  std::set<std::pair<std::string, std::string>> reported;
  return shortfalls(lib, label, search, is_torch, defs, reported);
}

std::string_view version_family(std::string_view name) {
  const size_t us = name.rfind('_');
  return us == std::string_view::npos ? name : name.substr(0, us);
}

bool version_name_less(std::string_view a, std::string_view b) {
  if (version_family(a) != version_family(b)) return a < b;
  return numbers(a) < numbers(b);
}

LoadDiagnosis diagnose_loading(const std::string& path, const std::string& root,
                               const std::function<bool(std::string_view)>& is_torch) {
  LoadDiagnosis out;
  std::deque<std::string> todo{path};
  std::set<std::string> seen{path};
  Definitions defs;
  std::set<std::pair<std::string, std::string>> reported;               // (file, version)
  constexpr size_t kMaxLibraries = 256;
  while (!todo.empty() && out.libraries_read < kMaxLibraries) {
    const std::string lib = todo.front();
    todo.pop_front();
    auto o = open(lib);
    if (!o) continue;
    ++out.libraries_read;
    const LibrarySearch search = LibrarySearch::of(*o->elf, lib, root);
    std::map<std::string, std::optional<std::string>> found;
    auto locate = [&](std::string_view name) -> const std::optional<std::string>& {
      auto it = found.find(std::string(name));
      if (it == found.end()) it = found.emplace(std::string(name), find_library(name, search)).first;
      return it->second;
    };
    for (auto n : o->elf->needed()) {
      if (is_torch(n)) continue;
      const auto& p = locate(n);
      if (!p) {
        out.missing.push_back({std::string(n), lib});
        continue;
      }
      if (seen.insert(*p).second) todo.push_back(*p);
    }
    for (auto& r : shortfalls(*o->elf, lib, search, is_torch, defs, reported)) out.runtime.push_back(std::move(r));
  }
  return out;
}

}  // namespace torchabi::inputs
