// `torchabi explain RULE`: the documentation entry of one rule, ruff-style.
// `torchabi explain NAME`: what a porter needs of one at::/c10::/torch:: name,
// macro, header or C shim function (analyzers/migration/api_lookup.h).
#include <iostream>

#include "analyzers/migration/api_lookup.h"
#include "cli/commands.h"
#include "common/input_error.h"
#include "findings/rule_registry.h"
#include "inputs/rules_source.h"

namespace torchabi::cli {

void add_explain_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand("explain",
                                 "Explain a rule (what it checks, why, what to do instead) or a PyTorch API (stable "
                                 "since when, its replacement or workaround)");
  auto rule = std::make_shared<std::string>();
  cmd->add_option("RULE|NAME", *rule,
                  "Rule id (binary-unstable-import) or API name (at::sigmoid, c10::optional, TORCH_CHECK, "
                  "aoti_torch_empty_strided)")
      ->required();
  cmd->callback([&d, rule] {
    d.run = [rule] {
      const auto& reg = findings::RuleRegistry::current();
      const auto* doc = reg.find(*rule);
      if (!doc) {
        const auto lookup =
            migration::ApiLookup::load(inputs::RulesSource::current(), inputs::ApiCatalog::current());
        if (auto facts = lookup.explain(*rule)) {
          std::cout << migration::describe(*facts);
          return 0;
        }
        std::string near;
        for (const auto& [id, _] : reg.all())
          if (id.find(*rule) != std::string::npos) near += (near.empty() ? "" : ", ") + id;
        for (const auto& n : lookup.closest(*rule)) near += (near.empty() ? "" : ", ") + n;
        throw InputError(*rule, "no such rule or known PyTorch API" +
                                    (near.empty() ? std::string("; see 'torchabi rules list'") : "; did you mean: " + near));
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
