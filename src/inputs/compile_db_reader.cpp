#include "inputs/compile_db_reader.h"

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_set>

#include "common/input_error.h"
#include "common/json_io.h"
#include "inputs/build_ninja.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

std::string absolute_path(const std::string& path, const std::string& base) {
  fs::path p(path);
  if (p.is_relative()) p = fs::path(base) / p;
  return p.lexically_normal().string();
}

bool has_compile_db(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / "compile_commands.json", ec);
}

std::vector<std::string> split_shell_words(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\'') {
      in_word = true;
      for (++i; i < s.size() && s[i] != '\''; ++i) cur += s[i];
    } else if (c == '"') {
      in_word = true;
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        // Inside double quotes a backslash escapes only these characters.
        if (s[i] == '\\' && i + 1 < s.size() && std::string_view("\"\\$`\n").find(s[i + 1]) != std::string_view::npos)
          ++i;
        cur += s[i];
      }
    } else if (c == '\\' && i + 1 < s.size()) {
      in_word = true;
      cur += s[++i];
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
    } else {
      in_word = true;
      cur += c;
    }
  }
  if (in_word) words.push_back(std::move(cur));
  return words;
}

const CompileCommand* CompileDb::find(const std::string& abs_file) const {
  for (const auto& c : commands)
    if (c.file == abs_file) return &c;
  return nullptr;
}

namespace {

// What makes two commands of one file the same configuration: everything but
// the output file (generators list the same flags twice).
std::string configuration_key(const CompileCommand& c) {
  std::string key = c.directory;
  for (size_t i = 0; i < c.arguments.size(); ++i) {
    key += '\0';
    if (!(i > 0 && c.arguments[i - 1] == "-o")) key += c.arguments[i];
  }
  return key;
}

}  // namespace

std::vector<const CompileCommand*> CompileDb::find_all(const std::string& abs_file) const {
  std::vector<const CompileCommand*> out;
  std::unordered_set<std::string> seen;
  for (const auto& c : commands)
    if (c.file == abs_file && seen.insert(configuration_key(c)).second) out.push_back(&c);
  return out;
}

std::unordered_map<std::string, std::vector<const CompileCommand*>> CompileDb::all_by_file() const {
  std::unordered_map<std::string, std::vector<const CompileCommand*>> out;
  std::unordered_set<std::string> seen;
  for (const auto& c : commands)
    if (seen.insert(c.file + '\0' + configuration_key(c)).second) out[c.file].push_back(&c);
  return out;
}

CompileDb load_compile_db(const std::string& path_or_dir) {
  std::error_code ec;
  std::string path = path_or_dir;
  if (fs::is_directory(path, ec)) {
    path = (fs::path(path) / "compile_commands.json").string();
    if (!fs::exists(path, ec))
      throw InputError(path_or_dir, "no compile_commands.json in this directory (configure with "
                                    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or run the build under bear)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "compile database not found");
  std::ostringstream ss;
  ss << in.rdbuf();
  nlohmann::json j;
  try {
    j = json_io::parse(ss.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, std::string("malformed compile database: ") + e.what());
  }
  if (!j.is_array()) throw InputError(path, "malformed compile database: expected a JSON array of commands");

  CompileDb db;
  db.path = fs::absolute(path).lexically_normal().string();
  const std::string db_dir = fs::path(db.path).parent_path().string();
  for (size_t i = 0; i < j.size(); ++i) {
    const auto& e = j[i];
    const std::string where = path + ": entry " + std::to_string(i);
    if (!e.is_object() || !e.contains("file") || !e["file"].is_string() || !e.contains("directory") ||
        !e["directory"].is_string())
      throw InputError(where, "malformed compile database entry: needs \"file\" and \"directory\" strings");
    CompileCommand c;
    c.directory = absolute_path(e["directory"].get<std::string>(), db_dir);
    c.file = absolute_path(e["file"].get<std::string>(), c.directory);
    if (e.contains("arguments") && e["arguments"].is_array()) {
      for (const auto& a : e["arguments"]) {
        if (!a.is_string()) throw InputError(where, "malformed compile database entry: \"arguments\" must be strings");
        c.arguments.push_back(a.get<std::string>());
      }
    } else if (e.contains("command") && e["command"].is_string()) {
      c.arguments = split_shell_words(e["command"].get<std::string>());
    } else {
      throw InputError(where, "malformed compile database entry: needs \"arguments\" or \"command\"");
    }
    if (c.arguments.empty()) throw InputError(where, "malformed compile database entry: empty command");
    db.commands.push_back(std::move(c));
  }
  return db;
}

bool has_build_commands(const std::string& dir) { return has_compile_db(dir) || has_build_ninja(dir); }

CompileDb load_build_commands(const std::string& path_or_dir) {
  std::error_code ec;
  if (!fs::is_directory(path_or_dir, ec))
    return path_or_dir.ends_with(".ninja") ? load_build_ninja(path_or_dir) : load_compile_db(path_or_dir);
  // A database, when there is one, wins: it is what the user chose to export.
  if (has_compile_db(path_or_dir)) return load_compile_db(path_or_dir);
  if (has_build_ninja(path_or_dir)) return load_build_ninja(path_or_dir);
  throw InputError(path_or_dir, "no compile_commands.json or build.ninja in this directory (configure with "
                                "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON or -G Ninja, or build with setup.py build_ext "
                                "first, or run the build under bear)");
}

}  // namespace torchabi::inputs
