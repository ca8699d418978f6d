// The lint results cache: one entry per TU, keyed on its flags, the rules and
// the checks, and validated against the TU's inputs — every file clang read
// (size and mtime, then content when those changed) and every path it looked
// for and did not find (see header_search.h: the whole search path for a
// missing header, the directories before the one it was found in for the
// others). Absent paths are kept under their nearest existing ancestor
// directory, whose mtime changes when anything is created in it. An unchanged
// re-run therefore costs one stat per header read plus one per such directory
// instead of a parse, and any edited header, flag or rule, or header that
// appears where it would be found, invalidates exactly the TUs it affects.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace torchabi::source {

class ResultCache {
public:
  explicit ResultCache(std::string dir) : dir_(std::move(dir)) {}

  // The stored payload, if the entry exists and its inputs are unchanged.
  std::optional<std::string> load(const std::string& key) const;
  // Never throws: a cache that cannot be written only costs speed.
  void store(const std::string& key, const std::vector<std::string>& files_read,
             const std::vector<std::string>& files_missing, const std::string& payload) const;

  const std::string& dir() const { return dir_; }

private:
  std::string entry_path(const std::string& key) const;
  std::string dir_;
};

// $XDG_CACHE_HOME/torchabi/lint, else ~/.cache/torchabi/lint.
std::string default_cache_dir();

}  // namespace torchabi::source
