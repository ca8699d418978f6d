// Runs the registration checks over a project's translation units: each TU
// is parsed in a child process (libclang crashes stay contained, as in lint)
// and its registrations extracted and cached; then all TUs are checked
// together, so a def in one file meets its impl in another.
#pragma once

#include <string>
#include <vector>

#include "analyzers/schema/registrations/registration_checks.h"
#include "analyzers/source/header_classifier.h"
#include "inputs/compile_db_args.h"

namespace torchabi::schema {

struct RegistrationRunOptions {
  unsigned jobs = 0;                       // 0: one per core
  std::string cache_dir;                   // empty: no cache
  std::vector<std::string> project_roots;  // also where the project's Python files are searched
  bool whole_project = true;               // `tus` are all of the project's (see check_registrations)
};

struct RegistrationRun {
  std::vector<findings::Finding> findings;
  std::vector<findings::Subject> subjects;  // device backends' kernel coverage
  std::vector<std::string> warnings;        // TUs that could not be read, one line each
  size_t analysed = 0;                      // TUs parsed (or taken from the cache)
  size_t skipped = 0;                       // TUs that mention no registration API
};

// `env` comes from RegistrationEnv::load; its Python part is filled here.
RegistrationRun run_registration_checks(const std::vector<inputs::ClangArgs>& tus,
                                        const source::HeaderClassifier& classifier, RegistrationEnv env,
                                        const RegistrationRunOptions& options);

// What one TU registers (in this process), or an error line.
struct TuExtraction {
  TuRegistrations registrations;
  std::vector<std::string> files_read, files_missing;
  std::string error;
};
TuExtraction extract_translation_unit(const inputs::ClangArgs& args, const source::HeaderClassifier& classifier,
                                      const std::vector<std::string>& project_roots);

// Whether a source can register anything: it names a registration macro, the
// boxed calling convention or TORCH_BOX. Others are not parsed.
bool mentions_registration_api(const std::string& source_text);

}  // namespace torchabi::schema
