// `torchabi rules list`: every rule torchabi can report.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "common/input_error.h"
#include "common/json_io.h"
#include "findings/rule_registry.h"

namespace torchabi::cli {

void add_rules_command(CLI::App& app, Dispatch& d) {
  auto* rules = app.add_subcommand("rules", "Inspect torchabi's rules");
  rules->require_subcommand(1);
  auto* list = rules->add_subcommand("list", "List every rule with its severity, fix kind and summary");
  auto format = std::make_shared<std::string>("text");
  auto group = std::make_shared<std::string>();
  list->add_option("--format", *format, "text or json");
  list->add_option("--group", *group, "Only rules of this group (binary, source, version, schema, ...)");
  list->callback([&d, format, group] {
    d.run = [format, group] {
      if (*format != "text" && *format != "json") throw InputError("--format", "expected text or json, not '" + *format + "'");
      const auto& reg = findings::RuleRegistry::current();
      nlohmann::json j = nlohmann::json::array();
      for (const auto& [id, doc] : reg.all()) {
        if (!group->empty() && doc.group != *group) continue;
        if (*format == "json") {
          j.push_back({{"id", id}, {"group", doc.group}, {"severity", findings::to_string(doc.severity)},
                       {"fix", findings::to_string(doc.fix)}, {"summary", doc.summary}});
        } else {
          std::cout << std::left << std::setw(40) << id << std::setw(9) << findings::to_string(doc.severity)
                    << std::setw(8) << findings::to_string(doc.fix) << doc.summary << "\n";
        }
      }
      if (*format == "json") std::cout << json_io::dump(j, 2) << "\n";
      return 0;
    };
  });
}

}  // namespace torchabi::cli
