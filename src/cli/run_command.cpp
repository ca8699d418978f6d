// `torchabi run EXT.so`: loads a built stable-ABI extension into torchabi's
// reference runtime (no PyTorch), prints what it registers and runs its ops,
// checking the StableIValue stack protocol of every call.
#include <memory>

#include "analyzers/runtime/driver/run_extension.h"
#include "analyzers/runtime/opcheck/opcheck.h"
#include "cli/commands.h"
#include "cli/report_options.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"

namespace torchabi::cli {

namespace {

struct RunArgs {
  std::string extension;
  std::string cases;
  std::string torch_version;
  double timeout = 10.0;
  std::string runtime_dir;
  std::string root;
  std::vector<std::string> preload;
  std::string torch_python;  // --torch PYTHON: also real torch.library.opcheck there
  int opcheck_timeout = 900;
  ReportOptions report;
};

int run(const RunArgs& a) {
  validate_report_options(a.report);
  runtime_driver::RunOptions options;
  options.extension = a.extension;
  if (!a.cases.empty()) options.cases = a.cases;
  if (!a.torch_version.empty()) {
    TargetVersionReading r = read_target_version(a.torch_version, inputs::ApiCatalog::current().latest());
    if (!r.error.empty()) throw InputError("--torch-version", r.error);
    options.torch_version = r.version;
  }
  options.timeout_seconds = a.timeout;
  options.runtime_dir = a.runtime_dir;
  options.root = a.root;
  options.preload = a.preload;
  findings::Report report;
  report.command = "run";
  runtime_driver::run_extension(options, report);
  if (!a.torch_python.empty())
    runtime_opcheck::add_opcheck_findings(runtime_opcheck::run_opcheck(a.extension, a.torch_python, a.opcheck_timeout),
                                          a.extension, a.torch_python, report);
  return finish_report(report, a.report, {a.extension});
}

}  // namespace

void add_run_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "run", "Load a stable-ABI extension into torchabi's reference runtime (no PyTorch needed), run its ops and "
             "check the StableIValue stack protocol");
  auto args = std::make_shared<RunArgs>();
  cmd->add_option("EXT", args->extension, "The built extension (.so)")->required();
  cmd->add_option("--cases", args->cases,
                  "YAML file of cases (op, inputs, expected outputs or error); without it, one smoke call per op");
  cmd->add_option("--torch-version", args->torch_version,
                  "Behave as the runtime of this PyTorch release (2.10, 2.10.0 or 0x020a000000000000): stable C "
                  "functions introduced later are not offered");
  cmd->add_option("--timeout", args->timeout, "Seconds each call (and loading) may take before it counts as a hang")
      ->default_val(10.0);
  cmd->add_option("--runtime-dir", args->runtime_dir,
                  "Directory of the reference runtime libraries (default: next to torchabi, or TORCHABI_RUNTIME_DIR)");
  cmd->add_option("--root", args->root,
                  "Run the extension inside this root filesystem (a chroot of the system it was built on, with its "
                  "C/C++ runtime and libraries), entered through private user and mount namespaces; PyTorch is still "
                  "not needed there");
  cmd->add_option("--preload", args->preload,
                  "Load this library (RTLD_GLOBAL) before the extension, as its package's Python does for a sibling "
                  "the extension names by another file name (repeatable)")
      ->allow_extra_args(false);  // one library per --preload: EXT after it stays the extension
  cmd->add_option("--torch", args->torch_python,
                  "Also run PyTorch's own torch.library.opcheck on every op, in this Python interpreter (one with "
                  "torch 2.4 or later), confined like a build script; each failing utility becomes a finding");
  cmd->add_option("--opcheck-timeout", args->opcheck_timeout, "Seconds the whole opcheck run may take")
      ->default_val(900);
  add_report_options(*cmd, args->report);
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
