#include "cli/commands.h"

namespace torchabi::cli {

void register_commands(CLI::App& app, Dispatch& d) {
  add_explain_command(app, d);
  add_rules_command(app, d);
}

}  // namespace torchabi::cli
