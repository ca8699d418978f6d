// `torchabi explain RULE`: the documentation entry of one rule, ruff-style.
#include <iostream>

#include "cli/commands.h"
#include "common/input_error.h"
#include "findings/rule_registry.h"

namespace torchabi::cli {

void add_explain_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand("explain", "Explain a rule: what it checks, why, and what to do instead");
  auto rule = std::make_shared<std::string>();
  cmd->add_option("RULE", *rule, "Rule id, e.g. binary-unstable-import")->required();
  cmd->callback([&d, rule] {
    d.run = [rule] {
      const auto& reg = findings::RuleRegistry::current();
      const auto* doc = reg.find(*rule);
      if (!doc) {
        std::string near;
        for (const auto& [id, _] : reg.all())
          if (id.find(*rule) != std::string::npos) near += (near.empty() ? "" : ", ") + id;
        throw InputError(*rule, "no such rule" + (near.empty() ? std::string("; see 'torchabi rules list'")
                                                                : "; did you mean: " + near));
      }
      std::cout << doc->id << " (" << findings::to_string(doc->severity) << ", fix: " << findings::to_string(doc->fix)
                << ")\n\n"
                << doc->summary << "\n\n"
                << doc->description << "\n\nInstead:\n  " << doc->instead << "\n";
      if (!doc->example_fires.empty()) std::cout << "\nFires on:\n" << doc->example_fires << "\n";
      if (!doc->example_clean.empty()) std::cout << "\nDoes not fire on:\n" << doc->example_clean << "\n";
      return 0;
    };
  });
}

}  // namespace torchabi::cli
