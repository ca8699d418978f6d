// torchabi: checks PyTorch extensions against the LibTorch stable ABI.
// Every error path ends here as one line on stderr and exit code 2.
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "cli/report_options.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

int main(int argc, char** argv) {
  using namespace torchabi;
  CLI::App app{"torchabi: check PyTorch C++/CUDA extensions against the LibTorch stable ABI"};
  app.set_version_flag("--version", std::string("torchabi ") + TORCHABI_VERSION);
  app.require_subcommand(1);
  app.fallthrough();
  std::string rules_dir;
  app.add_option("--rules-dir", rules_dir, "Read rules from DIR instead of the rules compiled in");
  cli::Dispatch dispatch;
  cli::register_commands(app, dispatch);

  spdlog::set_pattern("torchabi: %l: %v");
  spdlog::set_level(spdlog::level::warn);
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
    std::cerr << "torchabi: error: " << e.line() << "\n";
    return cli::kExitInputError;
  }
  try {
    if (!rules_dir.empty()) inputs::RulesSource::set_current(inputs::RulesSource::directory(rules_dir));
    return dispatch.run ? dispatch.run() : cli::kExitInputError;
  } catch (const InputError& e) {
    std::cerr << "torchabi: error: " << e.line() << "\n";
    return cli::kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << "torchabi: internal error: " << e.what() << " (please report this)\n";
    return cli::kExitInputError;
  }
}
