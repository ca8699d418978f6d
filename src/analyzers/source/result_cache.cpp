#include "analyzers/source/result_cache.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

#include "analyzers/source/lint_env.h"
#include "common/atomic_file.h"

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
    json j = json::parse(in);
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
    for (const auto& p : j.at("absent"))
      if (stamp(p.get<std::string>()).exists) return std::nullopt;
    return j.at("payload").get<std::string>();
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
    j["absent"] = files_missing;
    j["payload"] = payload;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    write_file_atomically(entry_path(key), j.dump());
  } catch (const std::exception&) {
  }
}

}  // namespace torchabi::source
