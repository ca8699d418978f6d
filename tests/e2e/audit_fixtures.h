// Paths of the fixture artifacts the audit e2e tests use (built by the
// torchabi_fixtures target under the build tree), and small helpers that make
// damaged copies of them.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "cli_harness.h"

namespace torchabi::e2e::audit {

inline std::string fixture(const std::string& rel) { return build_dir() + "/fixtures/" + rel; }
inline std::string stable_lib() { return fixture("stable_ext/libstable_ext.so"); }
inline std::string stable_212_lib() { return fixture("stable_ext/libstable_ext_2_12.so"); }
inline std::string unknown_shim_lib() { return fixture("stable_ext/libstable_ext_unknown_shim.so"); }
inline std::string legacy_lib() { return fixture("legacy_ext/liblegacy_ext.so"); }
inline std::string wheel(const std::string& dist) {
  return fixture("wheels/" + dist + "-1.0-cp311-cp311-linux_x86_64.whl");
}
inline bool have_legacy() { return std::filesystem::exists(legacy_lib()); }

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::string write_file(const std::string& dir, const std::string& name, const std::string& content) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// A copy of `src` with `bytes` written at `offset`.
inline std::string patched_copy(const std::string& src, const std::string& dir, const std::string& name, size_t offset,
                                const std::string& bytes) {
  std::string content = read_all(src);
  EXPECT_GE(content.size(), offset + bytes.size());
  content.replace(offset, bytes.size(), bytes);
  return write_file(dir, name, content);
}

// The findings of `rule` in a JSON report.
inline std::vector<nlohmann::json> findings_of(const nlohmann::json& report, const std::string& rule) {
  std::vector<nlohmann::json> out;
  for (const auto& f : report["findings"])
    if (f["rule"] == rule) out.push_back(f);
  return out;
}

inline nlohmann::json subject(const nlohmann::json& report, const std::string& path) {
  for (const auto& s : report["subjects"])
    if (s["path"] == path) return s;
  ADD_FAILURE() << "no subject " << path << " in\n" << report.dump(2);
  return {};
}

inline int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

}  // namespace torchabi::e2e::audit
