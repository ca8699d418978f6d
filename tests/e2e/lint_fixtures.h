// Helpers for the `torchabi lint` / `check` end-to-end tests: fixture paths
// under fixtures/lint, compile databases made from templates, and the
// findings of one rule out of the JSON report.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "cli_harness.h"

namespace torchabi::e2e::lint {

inline std::string fixtures() { return source_dir() + "/fixtures"; }
inline std::string fixture(const std::string& rel) { return fixtures() + "/lint/" + rel; }
inline std::string stand_ins() { return fixture("include"); }

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// Extra flags of a fixture (<name>.flags next to it).
inline std::vector<std::string> fixture_flags(const std::string& cpp) {
  std::vector<std::string> out;
  std::ifstream in(cpp.substr(0, cpp.rfind('.')) + ".flags");
  for (std::string line; std::getline(in, line);) {
    replace_all(line, "@FIXTURES@", fixtures());
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// `torchabi lint --format json --cache-dir <fresh> ARGS...`
inline RunResult lint_json(std::vector<std::string> args) {
  std::vector<std::string> full = {"lint", "--format", "json", "--cache-dir", make_temp_dir()};
  full.insert(full.end(), args.begin(), args.end());
  return run_torchabi(full);
}

// Lints one fixture file with the stand-in headers and its .flags.
inline RunResult lint_fixture(const std::string& rel, bool stand_in_headers = true) {
  const std::string cpp = fixture(rel);
  std::vector<std::string> args = {cpp, "--", "-std=c++17"};
  if (stand_in_headers) {
    args.push_back("-I");
    args.push_back(stand_ins());
  }
  for (auto& f : fixture_flags(cpp)) args.push_back(f);
  return lint_json(args);
}

struct Found {
  std::string file;
  int line = 0;
  int column = 0;
  std::string symbol;
  auto operator<=>(const Found&) const = default;
};

inline void PrintTo(const Found& f, std::ostream* os) {
  *os << f.file << ":" << f.line << ":" << f.column << " [" << f.symbol << "]";
}

inline std::vector<Found> findings_of(const nlohmann::json& report, const std::string& rule) {
  std::vector<Found> out;
  for (const auto& f : report["findings"]) {
    if (f["rule"] != rule) continue;
    const auto& l = f["location"];
    out.push_back({l["file"].get<std::string>(), l.value("line", 0), l.value("column", 0), l.value("symbol", std::string())});
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline const nlohmann::json* finding_at(const nlohmann::json& report, const std::string& rule, int line, int column) {
  for (const auto& f : report["findings"])
    if (f["rule"] == rule && f["location"].value("line", 0) == line && f["location"].value("column", 0) == column)
      return &f;
  return nullptr;
}

// A compile database from a template under fixtures/lint (@SRC@, @BUILD@ replaced).
inline std::string make_compile_db(const std::string& template_rel, const std::string& src, const std::string& build) {
  std::string text = read_all(fixture(template_rel));
  replace_all(text, "@SRC@", src);
  replace_all(text, "@BUILD@", build);
  std::filesystem::create_directories(build);
  std::ofstream(build + "/compile_commands.json") << text;
  return build;
}

inline std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(dir + "/" + name).parent_path());
  std::ofstream(dir + "/" + name) << text;
  return dir + "/" + name;
}

}  // namespace torchabi::e2e::lint
