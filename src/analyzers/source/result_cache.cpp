#include "analyzers/source/result_cache.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <ctime>

#include "analyzers/source/lint_env.h"
#include "common/atomic_file.h"
#include "common/json_io.h"

namespace torchabi::source {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct FileStamp {
  bool exists = false;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
};

FileStamp stamp(const std::string& path) {
  struct stat st {};
  FileStamp s;
  if (::stat(path.c_str(), &st) != 0) return s;
  s.exists = true;
  s.size = uint64_t(st.st_size);
  s.mtime_ns = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return s;
}

std::optional<std::string> content_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return digest_hex(ss.str());
}

// A directory modified within the last second may still change within the
// same mtime tick (filesystem clocks are coarse): its mtime proves nothing
// yet, so it is stored as -1 and its paths are checked one by one until it
// has settled (as git treats "racily clean" index entries).
int64_t settled_mtime(const FileStamp& s) {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  const int64_t now_ns = int64_t(now.tv_sec) * 1000000000 + now.tv_nsec;
  return now_ns - s.mtime_ns < 1000000000 ? -1 : s.mtime_ns;
}

// The nearest ancestor of `path` that exists (the directory whose mtime
// changes when `path`, or the first missing directory on the way, is created).
std::string existing_ancestor(const std::string& path, std::unordered_map<std::string, bool>& exists) {
  fs::path p = fs::path(path).parent_path();
  for (;;) {
    const std::string s = p.string();
    auto it = exists.find(s);
    const bool e = it != exists.end() ? it->second : (exists[s] = stamp(s).exists);
    if (e || !p.has_parent_path() || p.parent_path() == p) return s.empty() ? "/" : s;
    p = p.parent_path();
  }
}

// [[dir, mtime, "relative\npaths"]...]; nullopt when one of the paths exists.
// The mtime is taken before the paths are checked: a path created after the
// check changes it.
std::optional<json> group_by_existing_ancestor(const std::vector<std::string>& missing) {
  std::map<std::string, std::vector<std::string>> groups;
  std::unordered_map<std::string, bool> exists;
  for (const auto& p : missing) {
    const std::string dir = existing_ancestor(p, exists);
    const std::string prefix = dir == "/" ? dir : dir + "/";
    if (!p.starts_with(prefix)) continue;
    groups[dir].push_back(p.substr(prefix.size()));
  }
  json out = json::array();
  for (auto& [dir, rels] : groups) {
    FileStamp s = stamp(dir);
    std::string joined;  // one string, not an array: thousands of paths parse much faster so
    for (const auto& r : rels) {
      if (stamp((dir == "/" ? dir : dir + "/") + r).exists) return std::nullopt;
      joined += (joined.empty() ? "" : "\n") + r;
    }
    out.push_back({dir, settled_mtime(s), std::move(joined)});
  }
  return out;
}

}  // namespace

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "torchabi" / "lint").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "torchabi" / "lint").string();
  return (fs::temp_directory_path() / "torchabi-lint-cache").string();
}

std::string ResultCache::entry_path(const std::string& key) const { return (fs::path(dir_) / (key + ".json")).string(); }

std::optional<std::string> ResultCache::load(const std::string& key) const {
  std::ifstream in(entry_path(key), std::ios::binary);
  if (!in) return std::nullopt;
  try {
    // Whole file first: parsing from a string is much faster than from a stream.
    std::ostringstream text;
    text << in.rdbuf();
    json j = json_io::parse(text.str());
    if (j.at("key") != key) return std::nullopt;
    for (const auto& e : j.at("inputs")) {
      const std::string path = e.at(0);
      FileStamp now = stamp(path);
      if (!now.exists || now.size != e.at(1).get<uint64_t>()) return std::nullopt;
      if (now.mtime_ns == e.at(2).get<int64_t>()) continue;
      // Touched but maybe not changed (a checkout, a rebuild): compare contents.
      auto d = content_digest(path);
      if (!d || *d != e.at(3).get<std::string>()) return std::nullopt;
    }
    // Paths that were searched and absent, by their deepest existing ancestor:
    // while its mtime is unchanged nothing was created below it (one stat);
    // when it changed, the paths themselves are checked, and the new mtime is
    // remembered so that the next run is back to one stat.
    bool refreshed = false;
    for (auto& g : j.at("absent_under")) {
      const std::string dir = g.at(0);
      FileStamp now = stamp(dir);
      if (now.exists && now.mtime_ns == g.at(1).get<int64_t>()) continue;
      const std::string& rels = g.at(2).get_ref<const std::string&>();
      for (size_t b = 0; b < rels.size();) {
        size_t e = rels.find('\n', b);
        if (e == std::string::npos) e = rels.size();
        if (stamp((dir == "/" ? dir : dir + "/") + rels.substr(b, e - b)).exists) return std::nullopt;
        b = e + 1;
      }
      if (now.exists && settled_mtime(now) != -1) {
        g[1] = now.mtime_ns;
        refreshed = true;
      }
    }
    std::string payload = j.at("payload").get<std::string>();
    if (refreshed) {
      try {
        write_file_atomically(entry_path(key), json_io::dump(j));
      } catch (const std::exception&) {
      }
    }
    return payload;
  } catch (const std::exception&) {
    return std::nullopt;  // a corrupt entry is a miss
  }
}

void ResultCache::store(const std::string& key, const std::vector<std::string>& files_read,
                        const std::vector<std::string>& files_missing, const std::string& payload) const {
  try {
    json j;
    j["key"] = key;
    j["inputs"] = json::array();
    for (const auto& p : files_read) {
      FileStamp s = stamp(p);
      auto d = content_digest(p);
      if (!s.exists || !d) return;  // an input vanished meanwhile: do not cache
      j["inputs"].push_back({p, s.size, s.mtime_ns, *d});
    }
    auto absent = group_by_existing_ancestor(files_missing);
    if (!absent) return;  // a missing header appeared meanwhile: do not cache
    j["absent_under"] = std::move(*absent);
    j["payload"] = payload;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    write_file_atomically(entry_path(key), json_io::dump(j));
  } catch (const std::exception&) {
  }
}

}  // namespace torchabi::source
