// Every subcommand is registered in commands.cpp and nowhere else.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace torchabi::cli {

// A subcommand's parse callback stores its work here; main runs it after
// parsing so that exceptions and exit codes are handled in one place.
struct Dispatch {
  std::function<int()> run;
};

void register_commands(CLI::App& app, Dispatch& dispatch);

// One per subcommand, each in <name>_command.cpp.
void add_audit_command(CLI::App& app, Dispatch& d);
void add_check_command(CLI::App& app, Dispatch& d);
void add_explain_command(CLI::App& app, Dispatch& d);
void add_lint_command(CLI::App& app, Dispatch& d);
void add_migrate_command(CLI::App& app, Dispatch& d);
void add_rules_command(CLI::App& app, Dispatch& d);
void add_rules_import_command(CLI::App& app, Dispatch& d);
void add_run_command(CLI::App& app, Dispatch& d);
void add_scan_command(CLI::App& app, Dispatch& d);
void add_schema_command(CLI::App& app, Dispatch& d);

}  // namespace torchabi::cli
