#include "analyzers/schema/registrations/lint_integration.h"

#include "analyzers/schema/registrations/registration_runner.h"
#include "inputs/rules_source.h"

namespace torchabi::schema {

void add_registration_checks(const std::vector<inputs::ClangArgs>& tus, const source::LintEnv& env,
                             const source::LintOptions& options, findings::Report& report,
                             std::vector<std::string>& warnings) {
  RegistrationRunOptions run_options;
  run_options.jobs = options.jobs;
  run_options.cache_dir = options.cache_dir;
  run_options.project_roots = options.project_roots;
  RegistrationRun run = run_registration_checks(tus, env.classifier, RegistrationEnv::load(inputs::RulesSource::current()),
                                                run_options);
  for (auto& f : run.findings) report.findings.push_back(std::move(f));
  for (auto& s : run.subjects) report.subjects.push_back(std::move(s));
  for (auto& w : run.warnings) warnings.push_back(std::move(w));
}

}  // namespace torchabi::schema
