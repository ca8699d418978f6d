#include "analyzers/schema/schema_file.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_error.h"

namespace torchabi::schema {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// Places an entry's schema in the raw file: the node's mark is where the
// YAML scalar starts, which is one column before the text when it is quoted.
void locate(SchemaEntry& e, const YAML::Mark& mark, const std::vector<std::string>& lines) {
  e.line = static_cast<uint32_t>(mark.line) + 1;
  e.column = static_cast<uint32_t>(mark.column) + 1;
  e.exact_columns = false;
  if (mark.line < 0 || static_cast<size_t>(mark.line) >= lines.size()) return;
  const std::string& raw = lines[mark.line];
  for (size_t skip : {size_t(0), size_t(1)}) {
    size_t at = static_cast<size_t>(mark.column) + skip;
    if (at <= raw.size() && raw.compare(at, e.text.size(), e.text) == 0) {
      e.column = static_cast<uint32_t>(at) + 1;
      e.exact_columns = true;
      return;
    }
  }
}

std::vector<SchemaEntry> parse_text_lines(const std::string& text) {
  std::vector<SchemaEntry> out;
  uint32_t n = 0;
  for (const std::string& raw : split_lines(text)) {
    ++n;
    size_t first = raw.find_first_not_of(" \t\r");
    if (first == std::string::npos || raw[first] == '#') continue;
    SchemaEntry e;
    e.text = raw.substr(first);
    while (!e.text.empty() && (e.text.back() == '\r' || e.text.back() == ' ')) e.text.pop_back();
    e.line = n;
    e.column = static_cast<uint32_t>(first) + 1;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

bool is_yaml_schema_file(const std::string& path) {
  auto ends = [&](const char* ext) {
    std::string e(ext);
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  return ends(".yaml") || ends(".yml");
}

std::vector<SchemaEntry> parse_native_functions(const std::string& yaml_text, const std::string& origin) {
  YAML::Node doc;
  try {
    doc = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InputError(origin, "not valid YAML: " + e.msg + " (line " + std::to_string(e.mark.line + 1) + ")");
  }
  if (!doc.IsSequence())
    throw InputError(origin, "expected a list of entries with 'func:' keys, as in native_functions.yaml");
  std::vector<std::string> lines = split_lines(yaml_text);
  std::vector<SchemaEntry> out;
  for (const YAML::Node& entry : doc) {
    if (!entry.IsMap() || !entry["func"]) continue;
    const YAML::Node func = entry["func"];
    if (!func.IsScalar())
      throw InputError(origin, "'func:' at line " + std::to_string(func.Mark().line + 1) +
                                   " is not a string");
    SchemaEntry e;
    e.text = func.Scalar();
    locate(e, func.Mark(), lines);
    if (const YAML::Node d = entry["dispatch"]; d && d.IsMap()) {
      e.has_dispatch = true;
      for (const auto& kv : d) {
        // One line may name several keys: "CPU, CUDA: add_out".
        std::string keys = kv.first.Scalar();
        std::istringstream in(keys);
        for (std::string k; std::getline(in, k, ',');) {
          size_t b = k.find_first_not_of(' '), end = k.find_last_not_of(' ');
          if (b != std::string::npos) e.dispatch_keys.push_back(k.substr(b, end - b + 1));
        }
      }
    }
    e.structured_delegate = static_cast<bool>(entry["structured_delegate"]);
    out.push_back(std::move(e));
  }
  if (out.empty()) throw InputError(origin, "no 'func:' entries found");
  return out;
}

std::vector<SchemaEntry> read_schema_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not a schema file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open file");
  std::stringstream buf;
  buf << in.rdbuf();
  if (in.bad()) throw InputError(path, "cannot read file");
  if (is_yaml_schema_file(path)) return parse_native_functions(buf.str(), path);
  auto entries = parse_text_lines(buf.str());
  if (entries.empty()) throw InputError(path, "no schemas found (expected one per line)");
  return entries;
}

}  // namespace torchabi::schema
