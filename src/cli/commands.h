// Every subcommand is registered in commands.cpp and nowhere else.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace torchabi::cli {

// A subcommand's parse callback stores its work here; main runs it after
// parsing so that exceptions and exit codes are handled in one place.
struct Dispatch {
  std::function<int()> run;
};

void register_commands(CLI::App& app, Dispatch& dispatch);
// Registers only the command `args` (argv without the program) names, when
// it names one: defining every command's options cost each process more than
// an audit of a library (bench/audit). Also true, registering nothing, when
// no command is named and no help is asked for (--version). False, having
// registered nothing, when all are needed: help, completion, an unknown word.
bool register_named_command(CLI::App& app, Dispatch& dispatch, const std::vector<std::string>& args);

// `torchabi NAME` where NAME is no subcommand: the one line naming it, the
// commands and the closest one; empty when `args` (argv without the program)
// starts with a subcommand, an option or nothing.
std::string unknown_command_message(const CLI::App& app, const std::vector<std::string>& args);

// One per subcommand, each in <name>_command.cpp.
void add_audit_command(CLI::App& app, Dispatch& d);
void add_check_command(CLI::App& app, Dispatch& d);
void add_completion_command(CLI::App& app, Dispatch& d);
void add_explain_command(CLI::App& app, Dispatch& d);
void add_lint_command(CLI::App& app, Dispatch& d);
void add_migrate_command(CLI::App& app, Dispatch& d);
void add_rules_command(CLI::App& app, Dispatch& d);
void add_rules_import_command(CLI::App& app, Dispatch& d);
void add_run_command(CLI::App& app, Dispatch& d);
void add_scan_command(CLI::App& app, Dispatch& d);
void add_schema_command(CLI::App& app, Dispatch& d);
void add_verify_port_command(CLI::App& app, Dispatch& d);

// `torchabi __audit-batch [audit options]` (not a command for users: `scan`'s
// workers run it): audits the NUL-separated artifacts read from stdin, each as
// `audit` would, in one process (audit_command.cpp).
int audit_batch_main(int argc, char** argv);

}  // namespace torchabi::cli
