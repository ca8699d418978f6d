// torchabi's command line: parses the arguments and runs the subcommand.
// Every error path ends here as one line on stderr and exit code 2.
#include "cli/tool_main.h"

#include "common/temp_dirs.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "analyzers/runtime/driver/root_child.h"
#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "cli/commands.h"
#include "cli/report_options.h"
#include "cli/version_text.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"
#include "reporters/path_bytes.h"

namespace {

// Once libclang is loaded, the static destructors of libLLVM and libclang
// (thousands of command-line options and registries) take ~15 ms at exit, a
// few percent of linting a small file, and free nothing the system would not.
// Every report has been written and every file closed by now: flush the
// streams and leave without them.
int exit_now_if_libclang(int code) {
  if (!torchabi::source::libclang::was_loaded()) return code;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

// The inputs named on the command line (arguments after the subcommand that
// are not options), for the one line an exhausted memory limit prints.
std::string named_inputs(int argc, char** argv) {
  std::string out;
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (a.empty() || a.front() == '-') continue;
    if (!out.empty()) out += ", ";
    out += a;
  }
  return out.empty() ? std::string(argc >= 2 ? argv[1] : "the arguments") : out;
}

}  // namespace

int torchabi::cli::tool_main(int argc, char** argv) {
  using namespace torchabi;
  // `run --root`: the child torchabi execs inside the root filesystem (not a command for users).
  if (argc >= 2 && std::string_view(argv[1]) == "__run-child") runtime_driver::run_child_main(argc, argv);
  // An interrupted run (CI cancels with SIGTERM) removes its scratch copies.
  temp_dirs::remove_on_interrupt();
  // `scan`'s workers: many audits in one process (not a command for users).
  if (argc >= 2 && std::string_view(argv[1]) == "__audit-batch") return cli::audit_batch_main(argc, argv);
  CLI::App app{"torchabi: check PyTorch C++/CUDA extensions against the LibTorch stable ABI"};
  app.require_subcommand(1);
  app.fallthrough();
  // Applied as soon as it is parsed (options run in the order they are
  // declared), so that --version describes the rules that would be used.
  app.add_option_function<std::string>(
      "--rules-dir",
      [](const std::string& dir) { inputs::RulesSource::set_current(inputs::RulesSource::directory(dir)); },
      "Read rules from DIR instead of the rules compiled in");
  app.set_version_flag("--version", std::function<std::string()>(cli::version_text));
  cli::Dispatch dispatch;
  if (!cli::register_named_command(app, dispatch, std::vector<std::string>(argv + 1, argv + argc)))
    cli::register_commands(app, dispatch);

  if (const std::string unknown = cli::unknown_command_message(app, std::vector<std::string>(argv + 1, argv + argc));
      !unknown.empty()) {
    std::cerr << "torchabi: " << unknown << "\n";
    return cli::kExitInputError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (argc < 2) msg = "a subcommand is required (audit, explain, rules, ...); see 'torchabi --help'";
    std::cerr << "torchabi: error: " << msg << "\n";
    return cli::kExitInputError;
  } catch (const InputError& e) {
    std::cerr << "torchabi: error: " << reporters::escape_for_text(e.line()) << "\n";
    return cli::kExitInputError;
  }
  try {
    return exit_now_if_libclang(dispatch.run ? dispatch.run() : cli::kExitInputError);
  } catch (const InputError& e) {
    std::cerr << "torchabi: error: " << reporters::escape_for_text(e.line()) << "\n";
    return cli::kExitInputError;
  } catch (const std::bad_alloc&) {
    // A memory limit (ulimit -v, a container) reached by a huge or hostile
    // input: an input error, never an abort.
    std::cerr << "torchabi: out of memory while reading " << reporters::escape_for_text(named_inputs(argc, argv)) << "\n";
    return cli::kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << "torchabi: internal error: " << e.what() << " (please report this)\n";
    return cli::kExitInputError;
  }
}
