#include "analyzers/schema/registrations/registration_runner.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>
#include <sstream>

#include "analyzers/schema/registrations/registration_extractor.h"
#include "analyzers/source/front_end.h"
#include "analyzers/source/lint_env.h"
#include "analyzers/source/result_cache.h"
#include "analyzers/source/tu_runner.h"
#include "common/json_io.h"

namespace torchabi::schema {

namespace {

// Bump when the extracted data changes shape or meaning.
constexpr const char* kExtractorVersion = "schema-registrations-v7";

std::string cache_key(const inputs::ClangArgs& tu, const RegistrationRunOptions& o) {
  std::string material = std::string(kExtractorVersion) + '\n' + tu.file + '\n' + tu.directory + '\n';
  for (const auto& a : tu.args) material += a + '\x1f';
  for (const auto& r : o.project_roots) material += r + '\x1e';
  return source::digest_hex(material);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::string serialize(const TuExtraction& e) {
  nlohmann::json j = {{"registrations", e.registrations}, {"read", e.files_read}, {"missing", e.files_missing},
                      {"error", e.error}};
  return json_io::dump(j);
}

TuExtraction deserialize(const std::string& text) {
  nlohmann::json j = json_io::parse(text);
  TuExtraction e;
  e.registrations = j.at("registrations").get<TuRegistrations>();
  e.files_read = j.at("read").get<std::vector<std::string>>();
  e.files_missing = j.at("missing").get<std::vector<std::string>>();
  e.error = j.at("error");
  return e;
}

}  // namespace

bool mentions_registration_api(const std::string& text) {
  for (const char* word : {"LIBRARY", "StableIValue", "TORCH_BOX", "class_"})
    if (text.find(word) != std::string::npos) return true;
  return false;
}

TuExtraction extract_translation_unit(const inputs::ClangArgs& args, const source::HeaderClassifier& classifier,
                                      const std::vector<std::string>& project_roots) {
  TuExtraction e;
  source::ParseRequest req;
  req.args = args;
  req.project_roots = project_roots;
  req.classifier = &classifier;
  auto outcome = source::parse_translation_unit(std::move(req));
  if (!outcome.tu) {
    e.error = outcome.error;
    return e;
  }
  e.registrations = extract_registrations(*outcome.tu);
  e.files_read = outcome.tu->files_read();
  e.files_missing = outcome.tu->files_missing();
  return e;
}

RegistrationRun run_registration_checks(const std::vector<inputs::ClangArgs>& tus,
                                        const source::HeaderClassifier& classifier, RegistrationEnv env,
                                        const RegistrationRunOptions& options) {
  RegistrationRun run;
  env.python = scan_python_sources(options.project_roots);
  env.python_ops = read_python_ops(options.project_roots);
  std::optional<source::ResultCache> cache;
  if (!options.cache_dir.empty()) cache.emplace(options.cache_dir);

  std::vector<std::optional<TuExtraction>> results(tus.size());
  std::vector<std::string> keys(tus.size());
  std::vector<size_t> todo;
  for (size_t i = 0; i < tus.size(); ++i) {
    if (!mentions_registration_api(read_file(tus[i].file))) {
      ++run.skipped;
      continue;
    }
    keys[i] = cache_key(tus[i], options);
    if (cache)
      if (auto payload = cache->load(keys[i])) {
        try {
          results[i] = deserialize(*payload);
          continue;
        } catch (const std::exception&) {
        }
      }
    todo.push_back(i);
  }
  auto outputs = source::run_isolated(todo.size(), options.jobs, [&](size_t k) {
    return serialize(extract_translation_unit(tus[todo[k]], classifier, options.project_roots));
  });
  for (size_t k = 0; k < todo.size(); ++k) {
    size_t i = todo[k];
    if (!outputs[k].ok) {
      run.warnings.push_back(tus[i].file + ": registrations not read: libclang " + outputs[k].error);
      continue;
    }
    try {
      results[i] = deserialize(outputs[k].output);
    } catch (const std::exception& e) {
      run.warnings.push_back(tus[i].file + ": registrations not read: " + e.what());
      continue;
    }
    if (cache && results[i]->error.empty())
      cache->store(keys[i], results[i]->files_read, results[i]->files_missing, outputs[k].output);
  }

  std::vector<TuRegistrations> all;
  for (size_t i = 0; i < tus.size(); ++i) {
    if (!results[i]) continue;
    if (!results[i]->error.empty()) {
      run.warnings.push_back(tus[i].file + ": registrations not read: " + results[i]->error);
      continue;
    }
    ++run.analysed;
    all.push_back(std::move(results[i]->registrations));
  }
  RegistrationOutcome outcome = check_registrations(all, env, options.whole_project);
  run.findings = std::move(outcome.findings);
  run.subjects = std::move(outcome.subjects);
  return run;
}

}  // namespace torchabi::schema
