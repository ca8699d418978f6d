// Shared by the source unit tests: fixture paths, the rules loaded once, and
// running the lint checks on one fixture in-process.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "analyzers/source/lint_engine.h"
#include "analyzers/source/lint_env.h"
#include "inputs/api_catalog.h"
#include "inputs/compile_db_args.h"
#include "inputs/rules_source.h"

namespace torchabi::source::test {

inline std::string fixtures() { return std::string(TORCHABI_SOURCE_DIR) + "/fixtures"; }
inline std::string lint_fixture(const std::string& rel) { return fixtures() + "/lint/" + rel; }
inline std::string stand_in_include() { return lint_fixture("include"); }

inline const LintEnv& env() {
  static const LintEnv e = LintEnv::load(inputs::RulesSource::embedded(), inputs::ApiCatalog::current());
  return e;
}

// Extra flags of a fixture: <name>.flags next to it, one per line.
inline std::vector<std::string> fixture_flags(const std::string& cpp) {
  std::vector<std::string> out;
  std::string flags = cpp.substr(0, cpp.rfind('.')) + ".flags";
  std::ifstream in(flags);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto at = line.find("@FIXTURES@");
    if (at != std::string::npos) line.replace(at, 10, fixtures());
    out.push_back(line);
  }
  return out;
}

// Parses and checks `cpp` with -std=c++17, the stand-in include dir and its .flags.
inline TuResult lint_file(const std::string& cpp, std::vector<std::string> extra = {}, bool stand_ins = true) {
  std::vector<std::string> flags = {"-std=c++17"};
  if (stand_ins) {
    flags.push_back("-I");
    flags.push_back(stand_in_include());
  }
  for (auto& f : fixture_flags(cpp)) flags.push_back(f);
  for (auto& f : extra) flags.push_back(f);
  auto args = inputs::translate_flags(cpp, flags, std::filesystem::path(cpp).parent_path().string());
  return analyze_translation_unit(args, env(), {std::filesystem::path(cpp).parent_path().string()});
}

// (line, column) of each finding of `rule`, sorted.
inline std::vector<std::pair<uint32_t, uint32_t>> positions(const TuResult& r, const std::string& rule,
                                                            const std::string& file = "") {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& f : r.findings)
    if (f.rule == rule && (file.empty() || f.location.file == file)) out.emplace_back(f.location.line, f.location.column);
  std::sort(out.begin(), out.end());
  return out;
}

inline const findings::Finding* find_finding(const TuResult& r, const std::string& rule, uint32_t line, uint32_t column = 0) {
  for (const auto& f : r.findings)
    if (f.rule == rule && f.location.line == line && (column == 0 || f.location.column == column)) return &f;
  return nullptr;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace torchabi::source::test
