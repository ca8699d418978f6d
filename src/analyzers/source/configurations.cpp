#include "analyzers/source/configurations.h"

#include <cctype>
#include <set>
#include <tuple>

#include "common/input_error.h"

namespace torchabi::source {

namespace {

constexpr const char* kInactive = "source-inactive-branch";

bool is_ast_use_rule(const std::string& rule) {
  return rule == "source-unstable-api" || rule == "source-unstable-macro" || rule == "source-unstable-include";
}

}  // namespace

std::vector<inputs::ClangArgs> with_define(const std::vector<inputs::ClangArgs>& tus, const std::string& define) {
  const std::string name = define.substr(0, define.find('='));
  bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok) throw InputError(define, "--also-define takes NAME or NAME=VALUE, NAME a macro name");
  std::vector<inputs::ClangArgs> out = tus;
  for (auto& a : out) {
    inputs::MacroFlag m;
    m.name = name;
    if (define.find('=') != std::string::npos) m.value = define.substr(define.find('=') + 1);
    a.macros.push_back(m);
    a.args.push_back("-D" + define);
  }
  return out;
}

void merge_configuration(findings::Report& into, findings::Report extra, const std::string& label) {
  std::set<std::tuple<std::string, std::string, uint32_t, uint32_t, std::string>> have;
  for (const auto& f : into.findings) have.emplace(f.rule, f.location.file, f.location.line, f.location.column, f.message);
  for (auto& f : extra.findings) {
    if (!have.emplace(f.rule, f.location.file, f.location.line, f.location.column, f.message).second) continue;
    if (f.rule == "source-tu-not-analysed" || f.rule == "source-tu-over-limit" || f.rule == "source-tu-parse-failed")
      continue;  // said once, for the default configuration
    f.notes.push_back("found in the configuration with " + label);
    into.findings.push_back(std::move(f));
  }
  for (const auto& s : extra.subjects)
    for (auto& mine : into.subjects)
      if (mine.kind == s.kind && mine.path == s.path && s.verdict == "UNSTABLE") mine.verdict = "UNSTABLE";
  into.suppressed += extra.suppressed;
}

void drop_inactive_duplicates(findings::Report& report) {
  std::set<std::tuple<std::string, uint32_t, std::string>> by_symbol;
  std::set<std::tuple<std::string, uint32_t, uint32_t>> by_column;
  for (const auto& f : report.findings) {
    if (!is_ast_use_rule(f.rule)) continue;
    by_symbol.emplace(f.location.file, f.location.line, f.location.symbol);
    by_column.emplace(f.location.file, f.location.line, f.location.column);
  }
  if (by_column.empty()) return;
  std::vector<findings::Finding> kept;
  kept.reserve(report.findings.size());
  for (auto& f : report.findings) {
    if (f.rule == kInactive && (by_symbol.count({f.location.file, f.location.line, f.location.symbol}) ||
                                by_column.count({f.location.file, f.location.line, f.location.column})))
      continue;
    kept.push_back(std::move(f));
  }
  report.findings = std::move(kept);
}

}  // namespace torchabi::source
