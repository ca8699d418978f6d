// `torchabi completion bash|zsh|fish`: a completion script generated from the
// command line's own definition (the CLI11 App tree: subcommands, options,
// which options take a value and whether that value is a file or one of a
// few words), so it never falls behind a new option.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <set>

#include "cli/commands.h"
#include "common/input_error.h"

namespace torchabi::cli {

namespace {

struct OptionSpec {
  std::vector<std::string> names;  // "-o", "--output"
  std::string description;
  bool takes_value = false;
  std::vector<std::string> choices;  // empty with takes_value: a file, unless no_file
  bool no_file = false;
};

struct CommandSpec {
  std::string path;  // "", "audit", "rules list"
  std::string key;   // "", "audit", "rules_list": a shell identifier
  std::string description;
  std::vector<std::string> subcommands;
  std::vector<OptionSpec> options;
};

// Values that are words, per option (and per command where they differ).
std::vector<std::string> choices_for(const std::string& command, const std::string& option) {
  if (option == "--format") {
    if (command == "migrate") return {"md", "html", "json"};
    if (command == "rules list") return {"text", "json"};
    return {"text", "json", "sarif", "md", "github"};
  }
  if (option == "--fail-on") return {"error", "warning", "note"};
  if (option == "--color") return {"auto", "always", "never"};
  if (option == "--group-by") return {"rule", "subject"};
  if (option == "--platform") return {"linux", "darwin", "win32"};
  if (option == "--run-build") return {"yes", "no", "unconfined"};
  if (option == "--group") return {"binary", "source", "version", "schema", "runtime", "project"};
  return {};
}

// Values that are neither words from a list nor files.
bool is_free_value(const std::string& option) {
  static const std::set<std::string> kFree = {"--target-version", "--torch-version", "--timeout", "--workers",
                                              "--scheduler", "--jobs", "--also-define", "--define", "--namespace",
                                              "--release", "--build-timeout"};
  return kFree.count(option) > 0;
}

void collect(const CLI::App& app, const std::string& path, std::vector<CommandSpec>& out) {
  CommandSpec c;
  c.path = path;
  c.key = path;
  for (auto& ch : c.key)
    if (ch == ' ' || ch == '-') ch = '_';
  c.description = app.get_description();
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    c.subcommands.push_back(sub->get_name());
  for (const auto* opt : app.get_options()) {
    if (opt->get_positional()) continue;
    OptionSpec o;
    for (const auto& s : opt->get_snames()) o.names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) o.names.push_back("--" + l);
    // CLI11's --no-X alternatives of a flag (--run-build{yes},--no-run-build{no}).
    for (const auto& l : opt->get_fnames())
      if (std::find(o.names.begin(), o.names.end(), "--" + l) == o.names.end()) o.names.push_back("--" + l);
    if (o.names.empty()) continue;
    o.description = opt->get_description();
    o.takes_value = opt->get_type_size_max() > 0 && opt->get_expected_max() > 0;
    const std::string long_name = opt->get_lnames().empty() ? o.names.front() : "--" + opt->get_lnames().front();
    o.choices = choices_for(path, long_name);
    o.no_file = is_free_value(long_name);
    c.options.push_back(std::move(o));
  }
  out.push_back(std::move(c));
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

std::string join(const std::vector<std::string>& words, const std::string& sep = " ") {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : sep) + w;
  return s;
}

std::vector<std::string> all_option_names(const CommandSpec& c) {
  std::vector<std::string> names;
  for (const auto& o : c.options) names.insert(names.end(), o.names.begin(), o.names.end());
  return names;
}

// The case arms that find the subcommand path from the words before the
// cursor: "rules/list") cmd=rules_list;;
std::string transitions(const std::vector<CommandSpec>& cmds) {
  std::string s;
  for (const auto& c : cmds)
    for (const auto& sub : c.subcommands)
      s += "      \"" + c.key + "/" + sub + "\") cmd=" + (c.key.empty() ? "" : c.key + "_") +
           [&] {
             std::string k = sub;
             for (auto& ch : k)
               if (ch == '-') ch = '_';
             return k;
           }() +
           " ;;\n";
  return s;
}

// The arms of bash's and zsh's `case "$cmd:$prev"` that complete an option's
// value: its choices, nothing (a value that is not a file) or a file name;
// the shells differ only in the reply.
std::string value_arms(const std::vector<CommandSpec>& cmds, const std::function<std::string(const std::string&)>& choices,
                       const std::string& no_file, const std::string& files) {
  std::string s;
  for (const auto& c : cmds)
    for (const auto& o : c.options) {
      if (!o.takes_value) continue;
      std::string arms;
      for (const auto& n : o.names) arms += (arms.empty() ? "" : "|") + std::string("\"") + c.key + ":" + n + "\"";
      const std::string reply = !o.choices.empty() ? choices(join(o.choices)) : o.no_file ? no_file : files;
      s += "    " + arms + ") " + reply + "; return ;;\n";
    }
  return s;
}

std::string bash_script(const std::vector<CommandSpec>& cmds) {
  std::string s = "# bash completion for torchabi (generated by 'torchabi completion bash')\n"
                  "_torchabi() {\n"
                  "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd=\"\" i\n"
                  "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
                  "    case \"$cmd/${COMP_WORDS[i]}\" in\n" +
                  transitions(cmds) +
                  "    esac\n"
                  "  done\n"
                  "  case \"$cmd:$prev\" in\n";
  s += value_arms(cmds, [](const std::string& choices) { return "COMPREPLY=($(compgen -W \"" + choices + "\" -- \"$cur\"))"; },
                  "COMPREPLY=()", "COMPREPLY=($(compgen -f -- \"$cur\"))");
  s += "  esac\n  local words=\"\"\n  case \"$cmd\" in\n";
  for (const auto& c : cmds) {
    s += "    \"" + c.key + "\") if [[ $cur == -* ]]; then words=\"" + join(all_option_names(c)) + "\"; else words=\"" +
         join(c.subcommands) + "\"; fi ;;\n";
  }
  s += "  esac\n"
       "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
       "  [[ $cur == -* ]] || COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
       "}\n"
       "complete -o filenames -F _torchabi torchabi\n";
  return s;
}

std::string zsh_quote(const std::string& t) {
  std::string s = "'";
  for (char c : t) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return s + "'";
}

std::string zsh_script(const std::vector<CommandSpec>& cmds) {
  std::string s = "#compdef torchabi\n"
                  "# zsh completion for torchabi (generated by 'torchabi completion zsh')\n"
                  "_torchabi() {\n"
                  "  local cur=\"${words[CURRENT]}\" prev=\"${words[CURRENT-1]}\" cmd=\"\" i\n"
                  "  for ((i = 2; i < CURRENT; i++)); do\n"
                  "    case \"$cmd/${words[i]}\" in\n" +
                  transitions(cmds) +
                  "    esac\n"
                  "  done\n"
                  "  case \"$cmd:$prev\" in\n";
  s += value_arms(cmds, [](const std::string& choices) { return "compadd -- " + choices; }, "_message 'value'", "_files");
  s += "  esac\n  case \"$cmd\" in\n";
  for (const auto& c : cmds) {
    s += "    \"" + c.key + "\")\n      if [[ $cur == -* ]]; then\n";
    std::vector<std::string> described;
    for (const auto& o : c.options)
      for (const auto& n : o.names) described.push_back(zsh_quote(n + ":" + o.description));
    s += "        local -a opts=(" + join(described) + ")\n        _describe 'option' opts\n";
    s += "      else\n";
    if (!c.subcommands.empty()) {
      std::vector<std::string> subs;
      for (const auto& sub : cmds)
        if (!sub.path.empty() && sub.path.rfind(' ') == (c.path.empty() ? std::string::npos : c.path.size()) &&
            (c.path.empty() || sub.path.starts_with(c.path + " ")))
          subs.push_back(zsh_quote(sub.path.substr(c.path.empty() ? 0 : c.path.size() + 1) + ":" + sub.description));
      s += "        local -a cmds=(" + join(subs) + ")\n        _describe 'command' cmds\n";
    }
    s += "        _files\n      fi ;;\n";
  }
  s += "  esac\n}\n"
       "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _torchabi \"$@\"; else compdef _torchabi torchabi; fi\n";
  return s;
}

std::string fish_quote(const std::string& t) {
  std::string s = "'";
  for (char c : t) {
    if (c == '\'' || c == '\\') s += '\\';
    s += c;
  }
  return s + "'";
}

std::string fish_script(const std::vector<CommandSpec>& cmds) {
  std::string s = "# fish completion for torchabi (generated by 'torchabi completion fish')\n"
                  "complete -c torchabi -f\n";
  for (const auto& c : cmds) {
    // Where this command's words apply: after its path, before any of its subcommands.
    std::string cond;
    if (c.path.empty()) cond = "__fish_use_subcommand";
    else {
      size_t start = 0;
      for (size_t end; start <= c.path.size(); start = end + 1) {
        end = c.path.find(' ', start);
        if (end == std::string::npos) end = c.path.size();
        cond += std::string(cond.empty() ? "" : "; and ") + "__fish_seen_subcommand_from " +
                c.path.substr(start, end - start);
      }
      if (!c.subcommands.empty()) cond += "; and not __fish_seen_subcommand_from " + join(c.subcommands);
    }
    for (const auto& sub : cmds)
      if (!sub.path.empty() && sub.path != c.path &&
          sub.path == (c.path.empty() ? "" : c.path + " ") + sub.path.substr(sub.path.rfind(' ') + 1) &&
          (c.path.empty() ? sub.path.find(' ') == std::string::npos : true))
        s += "complete -c torchabi -n " + fish_quote(cond) + " -a " + fish_quote(sub.path.substr(sub.path.rfind(' ') + 1)) +
             " -d " + fish_quote(sub.description.substr(0, 80)) + "\n";
    if (!c.path.empty() && c.subcommands.empty()) s += "complete -c torchabi -n " + fish_quote(cond) + " -F\n";
    for (const auto& o : c.options) {
      s += "complete -c torchabi -n " + fish_quote(cond);
      for (const auto& n : o.names) s += (n.starts_with("--") ? " -l " + n.substr(2) : " -s " + n.substr(1));
      if (o.takes_value) {
        if (!o.choices.empty()) s += " -x -a " + fish_quote(join(o.choices));
        else if (o.no_file) s += " -x";
        else s += " -r -F";
      }
      s += " -d " + fish_quote(o.description.substr(0, 80)) + "\n";
    }
  }
  return s;
}

}  // namespace

void add_completion_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand("completion", "Print a shell completion script: bash, zsh or fish");
  auto shell = std::make_shared<std::string>();
  cmd->add_option("SHELL", *shell, "bash, zsh or fish")->required();
  cmd->callback([&d, shell, &app] {
    d.run = [shell, &app] {
      std::vector<CommandSpec> cmds;
      collect(app, "", cmds);
      if (*shell == "bash") std::cout << bash_script(cmds);
      else if (*shell == "zsh") std::cout << zsh_script(cmds);
      else if (*shell == "fish") std::cout << fish_script(cmds);
      else throw InputError(*shell, "no completion for this shell (bash, zsh, fish)");
      return 0;
    };
  });
}

}  // namespace torchabi::cli
