// What the project-mode e2e tests compare: a report's findings as (rule,
// file name, line), and its `project` subject.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

namespace torchabi::e2e {

using Found = std::tuple<std::string, std::string, int>;  // rule, file name, line

inline std::set<Found> findings(const nlohmann::json& j) {
  std::set<Found> out;
  for (const auto& f : j["findings"])
    out.emplace(f["rule"].get<std::string>(),
                std::filesystem::path(f["location"].value("file", "")).filename().string(),
                f["location"].value("line", 0));
  return out;
}

inline const nlohmann::json* project_subject(const nlohmann::json& j) {
  for (const auto& s : j["subjects"])
    if (s["kind"] == "project") return &s;
  return nullptr;
}

}  // namespace torchabi::e2e
