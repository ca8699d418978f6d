#include "registration_fixtures.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fstream>
#include <sstream>

#include "analyzers/source/header_classifier.h"
#include "real_torch.h"
#include "inputs/compile_db_args.h"
#include "inputs/rules_source.h"

namespace torchabi::schema::testing {

namespace fs = std::filesystem;

std::string fixture_dir(const std::string& relative) {
  return (fs::path(TORCHABI_SOURCE_DIR) / "fixtures" / "schema" / relative).string();
}

const RegistrationRun& run_fixture(const std::string& relative) {
  static std::map<std::string, RegistrationRun> cache;
  if (auto it = cache.find(relative); it != cache.end()) return it->second;
  std::string dir = fixture_dir(relative);
  std::vector<std::string> flags = {"-std=c++17"};
  if (fs::exists(fs::path(dir) / "legacy")) {
    flags.push_back("-I/usr/include/torch/csrc/api/include");
  } else if (fs::exists(fs::path(dir) / "real-torch")) {
    // PyTorch's real headers, with the flags the file lists (a TORCH_TARGET_VERSION).
    flags.push_back("-I" + test::real_torch_include());
    std::ifstream in(fs::path(dir) / "real-torch");
    for (std::string flag; in >> flag;) flags.push_back(flag);
  } else {
    flags.push_back("-I" + fixture_dir("include"));
  }
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cpp") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<inputs::ClangArgs> tus;
  for (const auto& f : files) tus.push_back(inputs::translate_flags(f, flags, dir));
  auto rules = inputs::RulesSource::directory(fs::path(TORCHABI_SOURCE_DIR).append("rules").string());
  auto classifier = source::HeaderClassifier::load(rules);
  RegistrationRunOptions options;
  options.jobs = 2;
  options.cache_dir = TORCHABI_TEST_CACHE_DIR;
  options.project_roots = {dir};
  return cache.emplace(relative, run_registration_checks(tus, classifier, RegistrationEnv::load(rules), options))
      .first->second;
}

size_t count_rule(const RegistrationRun& run, const std::string& rule) {
  return static_cast<size_t>(
      std::count_if(run.findings.begin(), run.findings.end(), [&](const auto& f) { return f.rule == rule; }));
}

std::string describe(const RegistrationRun& run) {
  std::string out;
  for (const auto& f : run.findings) out += "  " + f.location.display() + ": [" + f.rule + "] " + f.message + "\n";
  for (const auto& w : run.warnings) out += "  warning: " + w + "\n";
  return out.empty() ? "  (no findings)\n" : out;
}

}  // namespace torchabi::schema::testing
