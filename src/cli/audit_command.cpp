// `torchabi audit PATH...`: lints built artifacts (shared libraries, wheels,
// directory trees) against the LibTorch stable ABI.
#include <memory>

#include "analyzers/binary/audit_runner.h"
#include "analyzers/binary/symbol_classifier.h"
#include "cli/audit_target.h"
#include "cli/commands.h"
#include "cli/report_options.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::cli {

namespace {

struct AuditArgs {
  std::vector<std::string> paths;
  std::string target_version;
  std::vector<std::string> torch;
  std::string env;  // --env [PYTHON]; "" when given without a value
  CLI::Option* env_option = nullptr;
  std::string python = "python3";
  ReportOptions report;
};

int run(const AuditArgs& a) {
  validate_report_options(a.report);
  const auto& catalog = inputs::ApiCatalog::current();
  binary::AuditOptions options;
  options.target = audit_target_version(a.target_version, a.report.config, a.paths, catalog);
  options.torch_paths = a.torch;
  const bool env_given = a.env_option && a.env_option->count() > 0;
  if (env_given) options.env_python = a.env.empty() ? a.python : a.env;
  options.python = a.python;
  if (a.paths.empty() && !env_given) throw InputError("audit", "give PATH... (libraries, wheels, directories), "
                                                                   "a distribution NAME, or --env [PYTHON]");
  auto classifier = binary::SymbolClassifier::from_rules(catalog, inputs::RulesSource::current());
  findings::Report report = binary::run_audit(a.paths, options, classifier);
  return finish_report(report, a.report, a.paths);
}

}  // namespace

void add_audit_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "audit", "Check built extensions (.so files, wheels, directories of them) against the LibTorch stable ABI");
  auto args = std::make_shared<AuditArgs>();
  cmd->add_option("PATH", args->paths,
                  "Shared libraries, wheels, directories to walk for them, or the NAME of a distribution installed "
                  "in --python's environment");
  cmd->add_option("--target-version", args->target_version,
                  "Oldest PyTorch release the extension must load on: 2.10, 2.10.0 or 0x020a000000000000");
  cmd->add_option("--torch", args->torch,
                  "A PyTorch install to resolve every library against (repeatable): site-packages/torch, a "
                  "libtorch directory, a torch wheel, or a directory holding libtorch_cpu.so")
      ->allow_extra_args(false);  // one install per option: a PATH after it stays a PATH
  args->env_option = cmd->add_option("--env", args->env,
                  "Audit every distribution installed in a Python environment, grouped per distribution (RECORD); "
                  "PYTHON defaults to --python. Write --env=PYTHON to name one.")
      ->expected(0, 1);
  cmd->add_option("--python", args->python, "The interpreter whose environment --env and NAME read (default python3)");
  add_report_options(*cmd, args->report);
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
