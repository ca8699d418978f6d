// `torchabi audit PATH...`: lints built artifacts (shared libraries, wheels,
// directory trees) against the LibTorch stable ABI. And `scan`'s batches
// (`torchabi __audit-batch`): many artifacts audited in one process, each
// exactly as `torchabi audit ARTIFACT` would.
#include <iostream>
#include <memory>
#include <new>
#include <sstream>

#include "analyzers/binary/audit_runner.h"
#include "analyzers/binary/symbol_classifier.h"
#include "analyzers/binary/torch_audit.h"
#include "cli/audit_target.h"
#include "cli/commands.h"
#include "cli/report_options.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"
#include "reporters/path_bytes.h"

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

int run(const AuditArgs& a, binary::SymbolClassifier* reused = nullptr) {
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
  std::unique_ptr<binary::SymbolClassifier> own;
  if (!reused) own.reset(new binary::SymbolClassifier(binary::SymbolClassifier::from_rules(catalog, inputs::RulesSource::current())));
  findings::Report report = binary::run_audit(a.paths, options, reused ? *reused : *own);
  return finish_report(report, a.report, a.paths);
}

void add_audit_options(CLI::App* cmd, const std::shared_ptr<AuditArgs>& args) {
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
}

// One artifact of a batch, as tool_main would run `audit ... ARTIFACT`: its
// report (stdout), its messages (stderr) and its exit code.
int audit_one(const AuditArgs& base, const std::string& artifact, binary::SymbolClassifier& classifier,
              std::string& out, std::string& err) {
  AuditArgs a = base;
  a.paths = {artifact};
  std::ostringstream o, e;
  std::streambuf* old_out = std::cout.rdbuf(o.rdbuf());
  std::streambuf* old_err = std::cerr.rdbuf(e.rdbuf());
  int code;
  try {
    code = run(a, &classifier);
  } catch (const InputError& x) {
    std::cerr << "torchabi: error: " << reporters::escape_for_text(x.line()) << "\n";
    code = kExitInputError;
  } catch (const std::bad_alloc&) {
    std::cerr << "torchabi: out of memory while reading " << reporters::escape_for_text(artifact) << "\n";
    code = kExitInputError;
  } catch (const std::exception& x) {
    std::cerr << "torchabi: internal error: " << x.what() << " (please report this)\n";
    code = kExitInputError;
  }
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  out = o.str();
  err = e.str();
  return code;
}

}  // namespace

void add_audit_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "audit", "Check built extensions (.so files, wheels, directories of them) against the LibTorch stable ABI");
  auto args = std::make_shared<AuditArgs>();
  add_audit_options(cmd, args);
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

int audit_batch_main(int argc, char** argv) {
  // argv: torchabi __audit-batch [audit options]; the artifacts on stdin,
  // each ended by a NUL byte. For each, in order, on stdout:
  //   "torchabi-audit <exit code> <stdout bytes> <stderr bytes>\n", then
  //   those bytes: what `torchabi audit [options] ARTIFACT` would print.
  // The rules, the symbol classifier and every --torch install are read once
  // for the whole batch. Bad options: one line on stderr, exit 2, nothing done.
  CLI::App app{"torchabi __audit-batch: audits the artifacts named on stdin, one report each (torchabi scan)"};
  auto args = std::make_shared<AuditArgs>();
  add_audit_options(&app, args);
  try {
    app.parse(argc - 1, argv + 1);
    validate_report_options(args->report);
  } catch (const CLI::ParseError& e) {
    std::cerr << "torchabi: error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const InputError& e) {
    std::cerr << "torchabi: error: " << reporters::escape_for_text(e.line()) << "\n";
    return kExitInputError;
  }
  if (!args->paths.empty()) {
    std::cerr << "torchabi: error: __audit-batch reads the artifacts from stdin, not from its arguments\n";
    return kExitInputError;
  }
  binary::reuse_torch_installs();
  std::unique_ptr<binary::SymbolClassifier> classifier;
  std::string artifact, out, err;
  while (std::getline(std::cin, artifact, '\0')) {
    if (artifact.empty()) continue;
    if (!classifier) {
      try {
        classifier.reset(new binary::SymbolClassifier(
            binary::SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current())));
      } catch (const InputError& e) {
        std::cerr << "torchabi: error: " << reporters::escape_for_text(e.line()) << "\n";
        return kExitInputError;
      }
    }
    const int code = audit_one(*args, artifact, *classifier, out, err);
    std::cout << "torchabi-audit " << code << " " << out.size() << " " << err.size() << "\n" << out << err;
    std::cout.flush();
  }
  return kExitClean;
}

}  // namespace torchabi::cli
