#include "analyzers/source/auto_import.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "analyzers/source/rules_import.h"
#include "analyzers/source/tu_runner.h"
#include "common/atomic_file.h"

namespace torchabi::source {

namespace fs = std::filesystem;

std::vector<std::string> torch_include_dirs(const std::vector<inputs::ClangArgs>& tus) {
  std::set<std::string> seen;
  std::vector<std::string> out;
  for (const auto& tu : tus)
    for (const auto& d : tu.include_dirs)
      if (seen.insert(d).second && has_stable_headers(d)) out.push_back(d);
  return out;
}

static std::string stamp_key(const std::string& dir, const std::string& rules_digest, const HeaderClassifier& classifier) {
  std::string m = dir + "\n" + rules_digest + "\n" + kImportFormat + "\n";
  for (const auto& f : stable_header_files(dir, classifier)) {
    struct stat st {};
    if (::stat(f.c_str(), &st) == 0)
      m += f + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + "\n";
  }
  return "import-" + digest_hex(m);
}

std::vector<std::string> import_torch_headers(LintEnv& env, const std::vector<std::string>& dirs,
                                              const std::string& cache_dir) {
  std::vector<std::string> problems;
  for (const auto& dir : dirs) {
    const std::string key = stamp_key(dir, env.digest, env.classifier);
    const fs::path entry = cache_dir.empty() ? fs::path() : fs::path(cache_dir) / (key + ".json");
    std::string payload;
    if (!cache_dir.empty()) {
      std::ifstream in(entry, std::ios::binary);
      if (in) {
        std::ostringstream ss;
        ss << in.rdbuf();
        payload = ss.str();
      }
    }
    if (payload.empty()) {
      const HeaderClassifier& classifier = env.classifier;
      const TorchVersion baseline = env.stable_apis.baseline();
      auto results = run_isolated(1, 1, [&](size_t) {
        return imported_to_json(import_stable_headers(dir, classifier, baseline));
      });
      if (!results[0].ok) {
        problems.push_back(dir + ": could not import the stable headers (" + results[0].error + "); using torchabi's rules");
        continue;
      }
      payload = results[0].output;
      if (!cache_dir.empty()) {
        std::error_code ec;
        fs::create_directories(cache_dir, ec);
        try {
          write_file_atomically(entry.string(), payload);
        } catch (const std::exception&) {
        }
      }
    }
    try {
      ImportedApis apis = imported_from_json(payload);
      merge_imported(env.stable_apis, apis);
      env.digest = digest_hex(payload, std::stoull(env.digest, nullptr, 16));
      env.imported_from.push_back(dir);
    } catch (const std::exception& e) {
      problems.push_back(dir + ": " + e.what());
    }
  }
  return problems;
}

}  // namespace torchabi::source
