// `torchabi audit PATH...`: lints built artifacts (shared libraries, wheels,
// directory trees) against the LibTorch stable ABI.
#include <memory>

#include "analyzers/binary/audit_runner.h"
#include "analyzers/binary/symbol_classifier.h"
#include "cli/commands.h"
#include "cli/report_options.h"
#include "common/input_error.h"
#include "findings/config.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::cli {

namespace {

struct AuditArgs {
  std::vector<std::string> paths;
  std::string target_version;
  ReportOptions report;
};

// --target-version wins over the config's target-version; both are read the
// same way, so a hex typo is caught wherever it was written.
std::optional<TorchVersion> target_version(const AuditArgs& a, const inputs::ApiCatalog& catalog) {
  std::string text = a.target_version, origin = "--target-version";
  if (text.empty()) {
    findings::Config config = a.report.config.empty() ? findings::Config::discover(a.paths)
                                                       : findings::Config::load_file(a.report.config);
    if (!config.target_version) return std::nullopt;
    text = *config.target_version;
    origin = config.source + ": target-version";
  }
  TargetVersionReading r = read_target_version(text, catalog.latest());
  if (!r.error.empty()) throw InputError(origin, r.error);
  return r.version;
}

int run(const AuditArgs& a) {
  validate_report_options(a.report);
  const auto& catalog = inputs::ApiCatalog::current();
  binary::AuditOptions options;
  options.target = target_version(a, catalog);
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
  add_report_options(*cmd, args->report);
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
