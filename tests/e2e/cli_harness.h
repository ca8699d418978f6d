// Runs the built torchabi binary as a user would and captures what it prints.
// End-to-end tests assert on exit codes and on parsed JSON/SARIF, never on
// grepped text alone.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace torchabi::e2e {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  nlohmann::json json() const;  // parses `out`; fails the test when it is not JSON
};

// Runs `torchabi ARGS...` with the working directory `cwd` (default: a fresh
// temporary directory per call, so no config file is picked up by accident).
RunResult run_torchabi(const std::vector<std::string>& args, const std::string& cwd = "");
// The same through a wrapper command (`setpriv ...`): WRAPPER... torchabi ARGS...
RunResult run_torchabi_wrapped(const std::vector<std::string>& wrapper, const std::vector<std::string>& args,
                               const std::string& cwd = "");
// The same under `ulimit -v KB` (an address-space limit torchabi inherits).
RunResult run_torchabi_under_ulimit(long kb, const std::vector<std::string>& args, const std::string& cwd = "");

// Paths provided by CMake.
std::string torchabi_binary();
std::string source_dir();    // the repository root
std::string build_dir();     // the CMake build root (fixtures are built under it)
std::string shared_data();   // ../shared/data/pytorch next to the checkout, if present

// A fresh empty directory under the test's temp dir, removed at exit.
std::string make_temp_dir();

// The documentation examples of rules/checks/*.yaml are commands; tests run
// them. A command line split into words ('single quotes' group), and the
// first line of a `key: |` block of a rule file ("" when absent).
std::vector<std::string> shell_words(const std::string& line);
std::string first_block_line(const std::string& path, const std::string& key);

// The bytes of a percent-encoded name (the *_bytes fields of JSON reports).
inline std::string percent_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += char(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace torchabi::e2e
