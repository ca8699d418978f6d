// The lint results cache: one entry per TU, keyed on its flags, the rules and
// the checks, and validated against the TU's inputs — every file clang read
// (size and mtime, then content when those changed) and every path it looked
// for and did not find. An unchanged re-run therefore costs a few stat calls
// per header instead of a parse, and any edited header, flag or rule
// invalidates exactly the TUs it affects.
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
