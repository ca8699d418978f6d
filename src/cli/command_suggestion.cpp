// `torchabi frobnicate`: CLI11 would say "A subcommand is required" (the word
// goes to no positional); this names the word, lists the commands and
// suggests the closest one.
#include <algorithm>

#include "cli/commands.h"
#include "common/text.h"

namespace torchabi::cli {

std::string unknown_command_message(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  std::sort(names.begin(), names.end());
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--rules-dir") {  // the one global option with a value
      ++i;
      continue;
    }
    if (a.starts_with("-")) continue;
    if (std::find(names.begin(), names.end(), a) != names.end()) return "";
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    std::string msg = "unknown command '" + a + "' (commands: " + list + ")";
    // The closest name, when it is close: a typo or a prefix.
    std::string best;
    size_t best_d = 3;
    for (const auto& n : names) {
      size_t d = n.starts_with(a) ? 1 : text::edit_distance(a, n);
      if (d < best_d && d * 3 <= std::max(a.size(), n.size())) best = n, best_d = d;
    }
    if (!best.empty()) msg += "; did you mean '" + best + "'?";
    return msg;
  }
  return "";
}

}  // namespace torchabi::cli
