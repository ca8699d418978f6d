#include "inputs/project/cmake_reply.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "common/input_error.h"
#include "common/json_io.h"
#include "common/text.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> split_fragment(const std::string& fragment) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < fragment.size(); ++i) {
    const char c = fragment[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < fragment.size()) word += fragment[++i];
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < fragment.size()) {
      word += fragment[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

namespace {

json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file.string(), "the CMake File API reply is missing");
  try {
    return json_io::parse(in);
  } catch (const json::exception& e) {
    throw InputError(file.string(), std::string("the CMake File API reply is not JSON: ") + e.what());
  }
}

// The newest index file: CMake writes a new one per configure.
fs::path newest_index(const fs::path& reply) {
  fs::path best;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(reply, ec))
    if (e.path().filename().string().starts_with("index-") && e.path().extension() == ".json" &&
        (best.empty() || e.path().filename() > best.filename()))
      best = e.path();
  if (best.empty()) throw InputError(reply.string(), "cmake wrote no File API reply (index-*.json)");
  return best;
}

const std::set<std::string> kCompiledTypes = {"SHARED_LIBRARY", "MODULE_LIBRARY", "STATIC_LIBRARY", "OBJECT_LIBRARY",
                                              "EXECUTABLE"};

fs::path absolute_in(const fs::path& base, const std::string& p) {
  fs::path path(p);
  fs::path out = (path.is_absolute() ? path : base / path).lexically_normal();
  // "." normalizes to a trailing separator: the directory itself is meant.
  if (out.filename().empty() && out.has_parent_path() && out != out.root_path()) out = out.parent_path();
  return out;
}

}  // namespace

CMakeReply read_cmake_reply(const ReplyPaths& paths) {
  const fs::path reply = fs::path(paths.build_dir) / ".cmake/api/v1/reply";
  const fs::path index_file = newest_index(reply);
  CMakeReply out;
  try {
    const json index = read_json(index_file);
    out.cmake_version = index.at("cmake").at("version").at("string").get<std::string>();
    const json& model_ref = index.at("reply").at("codemodel-v2");
    if (model_ref.contains("error"))
      throw InputError(index_file.string(), "codemodel-v2: " + model_ref["error"].get<std::string>());
    const json model = read_json(reply / model_ref.at("jsonFile").get<std::string>());
    const fs::path source_root = model.at("paths").at("source").get<std::string>();
    const fs::path build_root = model.at("paths").at("build").get<std::string>();
    const json& config = model.at("configurations").at(0);
    for (const auto& ref : config.at("targets")) {
      const json t = read_json(reply / ref.at("jsonFile").get<std::string>());
      if (!kCompiledTypes.count(t.at("type").get<std::string>()) || !t.contains("compileGroups")) continue;
      const std::string name = t.at("name");
      // Where add_library/add_executable was called: the target's own
      // backtrace node, inside the function when a function declared it.
      std::string decl_file;
      int decl_line = 0;
      if (t.contains("backtrace") && t.contains("backtraceGraph")) {
        const json& g = t["backtraceGraph"];
        const json& node = g.at("nodes").at(t["backtrace"].get<size_t>());
        decl_file = paths.to_project(absolute_in(source_root, g.at("files").at(node.at("file").get<size_t>())).string());
        decl_line = node.value("line", 0);
      }
      const std::string directory =
          paths.to_project(absolute_in(source_root, t.at("paths").at("source").get<std::string>()).string());
      const json& sources = t.at("sources");
      for (const auto& group : t["compileGroups"]) {
        const std::string lang = group.at("language");
        if (lang != "CXX" && lang != "CUDA") continue;
        BuildConfiguration c;
        c.unit = "target " + name;
        c.compiler = lang == "CUDA" ? "nvcc" : "cxx";
        c.platform = "linux";
        c.method = paths.method;
        c.file = decl_file;
        c.line = decl_line;
        c.directory = directory;
        for (const auto& i : group.at("sourceIndexes")) {
          const json& s = sources.at(i.get<size_t>());
          if (s.value("isGenerated", false)) continue;  // exists only in the scratch build
          c.sources.push_back(paths.to_project(absolute_in(source_root, s.at("path").get<std::string>()).string()));
        }
        if (c.sources.empty()) continue;
        c.arguments.push_back(lang == "CUDA" ? "nvcc" : "c++");
        for (const auto& d : group.value("defines", json::array())) c.arguments.push_back("-D" + d.at("define").get<std::string>());
        for (const auto& i : group.value("includes", json::array())) {
          const std::string copy_path = absolute_in(source_root, i.at("path").get<std::string>()).string();
          if (text::path_is_under(copy_path, build_root.string())) out.generated_includes.push_back(copy_path);
          const std::string path = paths.to_project(copy_path);
          const bool system = i.value("isSystem", false) ||
                              std::find(paths.system_includes.begin(), paths.system_includes.end(), path) !=
                                  paths.system_includes.end();
          if (system) c.arguments.insert(c.arguments.end(), {"-isystem", path});
          else c.arguments.push_back("-I" + path);
        }
        for (const auto& f : group.value("compileCommandFragments", json::array())) {
          const auto words = split_fragment(f.at("fragment").get<std::string>());
          c.arguments.insert(c.arguments.end(), words.begin(), words.end());
        }
        out.configurations.push_back(std::move(c));
      }
    }
  } catch (const json::exception& e) {
    throw InputError(index_file.string(), std::string("unexpected CMake File API reply: ") + e.what());
  }
  return out;
}

}  // namespace torchabi::inputs
