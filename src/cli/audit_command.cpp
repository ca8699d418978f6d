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
  ReportOptions report;
};

int run(const AuditArgs& a) {
  validate_report_options(a.report);
  const auto& catalog = inputs::ApiCatalog::current();
  binary::AuditOptions options;
  options.target = audit_target_version(a.target_version, a.report.config, a.paths, catalog);
  options.torch_paths = a.torch;
  auto classifier = binary::SymbolClassifier::from_rules(catalog, inputs::RulesSource::current());
  findings::Report report = binary::run_audit(a.paths, options, classifier);
  return finish_report(report, a.report, a.paths);
}

}  // namespace

void add_audit_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "audit", "Check built extensions (.so files, wheels, directories of them) against the LibTorch stable ABI");
  auto args = std::make_shared<AuditArgs>();
  cmd->add_option("PATH", args->paths, "Shared libraries, wheels, or directories to walk for *.so and *.whl")
      ->required();
  cmd->add_option("--target-version", args->target_version,
                  "Oldest PyTorch release the extension must load on: 2.10, 2.10.0 or 0x020a000000000000");
  cmd->add_option("--torch", args->torch,
                  "A PyTorch install to resolve every library against (repeatable): site-packages/torch, a "
                  "libtorch directory, a torch wheel, or a directory holding libtorch_cpu.so")
      ->allow_extra_args(false);  // one install per option: a PATH after it stays a PATH
  add_report_options(*cmd, args->report);
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
