// Small string and file-reading helpers that many stages need. They used to be
// redefined file by file, which also kept the build from compiling several
// files as one (CMake's unity build): one definition each, here.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::text {

// `s` without the ASCII white space (isspace) at either end.
std::string_view trim(std::string_view s);

// A letter, digit or '_': a character of a C/C++ identifier.
inline bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The items with `sep` between them.
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

// Whether `path` is `dir` or below it (a string test: no file system access).
bool path_is_under(std::string_view path, std::string_view dir);

// `s` with its line breaks turned into spaces, for a one-line message.
std::string one_line(std::string s);

// `s` with every `from` replaced by `to` (left to right, not re-scanned).
std::string replace_all(std::string s, std::string_view from, std::string_view to);

// The last line of `text` that is not blank (a child's one-line error after
// whatever it printed), cut to `max` characters with "...".
std::string last_line(const std::string& text, size_t max = 300);

// Every field of `s` between `sep`s, empty fields included ("a,,b" -> a, "", b).
std::vector<std::string_view> split(std::string_view s, char sep);

// The whole file, or nullopt when it cannot be opened or is not a regular
// file; files larger than `limit` bytes are nullopt too (a stray device or a
// huge file is not read whole by accident).
std::optional<std::string> read_file(const std::filesystem::path& path, size_t limit = size_t(1) << 30);

// read_file's text, or "" when it cannot be read (for callers to whom a
// missing file and an empty one mean the same).
std::string read_file_or_empty(const std::filesystem::path& path);

// Levenshtein distance (insertions, deletions, substitutions), for "did you
// mean" hints; `ignore_case` compares ASCII letters case-insensitively.
size_t edit_distance(std::string_view a, std::string_view b, bool ignore_case = false);

// Whether `path` exists, false on any error (permissions, loops).
bool exists(const std::filesystem::path& path);

}  // namespace torchabi::text
