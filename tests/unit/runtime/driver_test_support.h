// Runs a fixture extension through the driver and returns its findings in a
// form tests can compare exactly: "rule | symbol | message".
#pragma once

#include <string>
#include <vector>

#include "analyzers/runtime/driver/run_extension.h"

namespace runtime_test {

inline std::string fixture(const std::string& name) { return std::string(TORCHABI_RUNTIME_FIXTURE_DIR) + "/" + name + ".so"; }
inline std::string fixture_source(const std::string& rel) { return std::string(TORCHABI_RUNTIME_FIXTURE_SRC) + "/" + rel; }

struct Run {
  torchabi::findings::Report report;
  std::vector<std::string> lines;  // "rule | symbol | message"
  const torchabi::findings::Subject& subject() const { return report.subjects.front(); }
  std::string fact(const std::string& key) const {
    for (const auto& [k, v] : subject().facts)
      if (k == key) return v;
    return "<no fact '" + key + "'>";
  }
};

inline Run run(const std::string& name, const std::string& cases = "", const std::string& version = "",
               double timeout = 10.0) {
  torchabi::runtime_driver::RunOptions o;
  o.extension = fixture(name);
  if (!cases.empty()) o.cases = fixture_source(cases);
  if (!version.empty()) o.torch_version = torchabi::TorchVersion::parse_dotted(version);
  o.timeout_seconds = timeout;
  o.runtime_dir = TORCHABI_RUNTIME_LIB_DIR;
  Run r;
  torchabi::runtime_driver::run_extension(o, r.report);
  for (const auto& f : r.report.findings) r.lines.push_back(f.rule + " | " + f.location.symbol + " | " + f.message);
  return r;
}

}  // namespace runtime_test
