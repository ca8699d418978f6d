// GitHub Actions workflow commands: one annotation per finding,
//   ::error file=F,line=L,col=C,title=RULE::message
// (warning/notice for the other severities), so a CI log shows findings on
// the pull request's diff. Values are escaped as the Actions runner unescapes
// them: %, CR and LF everywhere, and also ':' and ',' in properties.
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "findings/rule_registry.h"
#include "reporters/reporter.h"

namespace torchabi::reporters {

namespace {

std::string escape_data(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string escape_property(const std::string& s) {
  std::string out;
  for (char c : escape_data(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

// Annotations attach to files by their path in the repository: an absolute
// path under $GITHUB_WORKSPACE (else the working directory) is made relative.
std::string annotation_path(const std::string& file) {
  namespace fs = std::filesystem;
  const fs::path p(file);
  if (!p.is_absolute()) return file;
  std::error_code ec;
  const char* ws = std::getenv("GITHUB_WORKSPACE");
  const fs::path base = ws && *ws ? fs::path(ws) : fs::current_path(ec);
  if (ec || base.empty()) return file;
  const fs::path rel = p.lexically_normal().lexically_relative(base.lexically_normal());
  if (rel.empty() || *rel.begin() == "..") return file;
  return rel.string();
}

const char* command_for(findings::Severity s) {
  switch (s) {
    case findings::Severity::Error: return "error";
    case findings::Severity::Warning: return "warning";
    case findings::Severity::Note: return "notice";
  }
  return "error";
}

}  // namespace

std::string render_github(const findings::Report& r, const findings::RuleRegistry&) {
  std::string out;
  for (const auto& f : r.findings) {
    const auto& loc = f.location;
    std::vector<std::string> props;
    if (!loc.file.empty()) props.push_back("file=" + escape_property(annotation_path(loc.file)));
    if (loc.line) props.push_back("line=" + std::to_string(loc.line));
    if (loc.line && loc.column) props.push_back("col=" + std::to_string(loc.column));
    props.push_back("title=" + escape_property(f.rule));
    // The message carries what the annotation's place cannot: the member of
    // a wheel, the symbol, then the notes and the help, one line each.
    std::string msg = f.message;
    if (!loc.member.empty()) msg = loc.member + ": " + msg;
    if (!loc.symbol.empty() && msg.find(loc.symbol) == std::string::npos) msg += " (" + loc.symbol + ")";
    for (const auto& n : f.notes) msg += "\nnote: " + n;
    if (!f.help.empty()) msg += "\nhelp: " + f.help;
    out += "::" + std::string(command_for(f.severity.value_or(findings::Severity::Error))) + " ";
    for (size_t i = 0; i < props.size(); ++i) out += (i ? "," : "") + props[i];
    out += "::" + escape_data(msg) + "\n";
  }
  // A plain line (not a workflow command): the log's one-line summary.
  out += "torchabi" + (r.command.empty() ? std::string() : " " + r.command) + ": " + count_summary(r) + "\n";
  return out;
}

}  // namespace torchabi::reporters
