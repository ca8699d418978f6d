// Where rules/ data comes from: the copy compiled into the binary, or a
// directory given with --rules-dir (to try edited rules without rebuilding).
// Every reader of rules/ goes through this, so both behave the same.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

class RulesSource {
public:
  static RulesSource embedded();
  // Throws InputError when `dir` is not a directory.
  static RulesSource directory(const std::string& dir);

  // Content of rules/<relpath>; nullopt when absent.
  std::optional<std::string> read(const std::string& relpath) const;
  // The bytes of an embedded file, without a copy (they live as long as the
  // process); nullopt for a directory source or an absent file.
  std::optional<std::string_view> embedded_view(const std::string& relpath) const;
  // Same, but a missing file is an InputError (the rules are broken, not the user's input).
  std::string require(const std::string& relpath) const;
  // Relative paths of the files directly or indirectly under `prefix`, sorted.
  std::vector<std::string> list(const std::string& prefix) const;
  std::string describe() const;  // "embedded rules" or the directory
  bool is_embedded() const { return dir_.empty(); }

  // The process-wide source chosen by the CLI (embedded unless --rules-dir).
  static const RulesSource& current();
  static void set_current(RulesSource src);

private:
  std::string dir_;  // empty: embedded
};

}  // namespace torchabi::inputs
