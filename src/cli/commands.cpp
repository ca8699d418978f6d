#include "cli/commands.h"

namespace torchabi::cli {

void register_commands(CLI::App& app, Dispatch& d) {
  add_audit_command(app, d);
  add_check_command(app, d);
  add_completion_command(app, d);  // last of all would do: it reads the tree when it runs
  add_explain_command(app, d);
  add_lint_command(app, d);
  add_migrate_command(app, d);
  add_rules_command(app, d);
  add_rules_import_command(app, d);  // adds `rules import`, so after add_rules_command
  add_run_command(app, d);
  add_scan_command(app, d);
  add_schema_command(app, d);
}

}  // namespace torchabi::cli
