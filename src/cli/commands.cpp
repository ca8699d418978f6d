#include "cli/commands.h"

#include <string_view>

namespace torchabi::cli {

namespace {

struct Command {
  const char* name;
  void (*add)(CLI::App&, Dispatch&);
};

// In the order --help lists them.
constexpr Command kCommands[] = {
    {"audit", add_audit_command},
    {"check", add_check_command},
    {"completion", add_completion_command},  // last of all would do: it reads the tree when it runs
    {"explain", add_explain_command},
    {"lint", add_lint_command},
    {"migrate", add_migrate_command},
    {"rules", add_rules_command},
    {"rules", add_rules_import_command},  // adds `rules import`, so after add_rules_command
    {"run", add_run_command},
    {"scan", add_scan_command},
    {"schema", add_schema_command},
    {"verify-port", add_verify_port_command},
};

}  // namespace

void register_commands(CLI::App& app, Dispatch& d) {
  for (const auto& c : kCommands) c.add(app, d);
}

bool register_named_command(CLI::App& app, Dispatch& d, const std::vector<std::string>& args) {
  // The first word that is not an option (nor --rules-dir's value).
  std::string_view word;
  for (size_t i = 0; i < args.size() && word.empty(); ++i) {
    const std::string_view a = args[i];
    if (a == "--rules-dir") ++i;
    else if (a == "-h" || a == "--help" || a == "--help-all") return false;  // lists every command
    else if (!a.starts_with("-")) word = a;
  }
  // No command: --version (or an error) needs none of them.
  if (word.empty()) return true;
  // `completion` prints the whole tree.
  if (word == "completion") return false;
  bool found = false;
  for (const auto& c : kCommands)
    if (word == c.name) {
      c.add(app, d);
      found = true;
    }
  return found;
}

}  // namespace torchabi::cli
