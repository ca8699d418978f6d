#include "inputs/conda_index.h"
#include "common/json_io.h"
#include "common/text.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <nlohmann/json.hpp>

#include "common/input_error.h"

namespace torchabi::inputs {

namespace {

using text::trim;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

}  // namespace

CondaDependency parse_conda_dependency(std::string_view spec) {
  CondaDependency d;
  d.text = std::string(trim(spec));
  std::string_view s = trim(spec);
  if (const size_t ch = s.find("::"); ch != std::string_view::npos) s.remove_prefix(ch + 2);
  // The name ends at a space or where an operator starts ("pytorch>=2.1" is read too).
  size_t end = 0;
  while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])) && !std::strchr("<>=!~", s[end])) ++end;
  d.name = lower(s.substr(0, end));
  s = trim(s.substr(end));
  // "name 2.1 build*" or "name >=2.1,<3 build*": the version is the first
  // word once spaces around operators are dropped (">= 2.1" is written too).
  std::string version;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      const bool op_before = !version.empty() && std::strchr("<>=!~,|", version.back());
      const bool op_after = j < s.size() && std::strchr("<>=!~,|", s[j]);
      if (!op_before && !op_after) {
        i = j;
        break;
      }
      i = j;
      continue;
    }
    version += c;
    ++i;
  }
  d.version = version;
  d.build = std::string(trim(s.substr(std::min(i, s.size()))));
  return d;
}

CondaIndex parse_conda_index(std::string_view text, const std::string& label) {
  nlohmann::json j;
  try {
    j = json_io::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(label, std::string("info/index.json is not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string())
    throw InputError(label, "info/index.json has no \"name\": not a conda package's metadata");
  CondaIndex out;
  auto str = [&](const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; };
  out.name = str("name");
  out.version = str("version");
  out.build = str("build");
  out.subdir = str("subdir");
  if (j.contains("depends") && j["depends"].is_array())
    for (const auto& d : j["depends"])
      if (d.is_string()) out.depends.push_back(parse_conda_dependency(d.get<std::string>()));
  return out;
}

}  // namespace torchabi::inputs
