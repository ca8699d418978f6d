#include "analyzers/source/token_use_findings.h"

namespace torchabi::source {

std::string describe_token_use(const TokenUse& u) {
  switch (u.kind) {
    case TokenUseKind::Include: return "includes unstable PyTorch header " + u.written;
    case TokenUseKind::Namespace: return "brings unstable PyTorch namespace " + u.symbol + " into scope";
    case TokenUseKind::Macro: return "uses unstable PyTorch macro " + u.symbol;
    case TokenUseKind::Member: return "uses unstable PyTorch API: method " + u.symbol + " (written " + u.written + ")";
    case TokenUseKind::Unqualified:
    case TokenUseKind::Name: {
      std::string w = u.written.starts_with("::") ? u.written.substr(2) : u.written;
      return "uses unstable PyTorch API: " + u.symbol + (w == u.symbol ? std::string() : " (written " + u.written + ")");
    }
  }
  return {};
}

std::string help_for_token_use(const LintEnv& env, const TokenUse& u) {
  const std::string_view kind =
      u.kind == TokenUseKind::Include ? "header" : u.kind == TokenUseKind::Macro ? "macro" : std::string_view();
  auto m = env.replacements.find(u.symbol, kind);
  if (m && m->replacement) {
    const Replacement& e = *m->entry;
    const std::string since = e.since ? " (PyTorch " + e.since->str() + "+)" : std::string();
    std::string help;
    if (u.kind == TokenUseKind::Include) {
      help = "Include <" + *m->replacement + "> instead" + since + ".";
    } else {
      std::string shown = *m->replacement;
      while (!shown.empty() && (shown.back() == ' ' || shown.back() == ',')) shown.pop_back();
      if (e.style == ReplacementStyle::PrefixArgs) shown += "...)";
      if (e.style == ReplacementStyle::CallTemplate) shown = shown.substr(0, shown.find('(')) + "(...)";
      if (e.style == ReplacementStyle::MethodToFunction) shown += "(tensor, ...)";
      help = (e.style == ReplacementStyle::MethodToFunction ? "Call " : "Use ") + shown +
             (e.header.empty() ? std::string() : " from " + e.header) + since + ".";
    }
    if (!e.note.empty()) help += " " + e.note;
    return help;
  }
  if (m && !m->entry->note.empty()) return m->entry->note;
  if (u.kind == TokenUseKind::Include)
    return "Include only stable headers (torch/csrc/stable/, torch/headeronly/, the C shim headers) and use the "
           "torch::stable API they declare.";
  if (u.kind == TokenUseKind::Macro) return "Write the code without the macro, using torch::stable / torch::headeronly APIs.";
  return "Use the torch::stable API (torch/csrc/stable/) or the header-only torch::headeronly API instead.";
}

findings::Finding token_use_finding(const LintEnv& env, const TokenUse& use, const std::string& rule,
                                    const std::string& file, uint32_t line, uint32_t column) {
  findings::Finding f;
  f.rule = rule;
  f.location.file = file;
  f.location.line = line;
  f.location.column = column;
  f.location.symbol = use.symbol;
  f.message = describe_token_use(use);
  f.help = help_for_token_use(env, use);
  return f;
}

}  // namespace torchabi::source
