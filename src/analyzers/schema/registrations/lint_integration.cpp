#include "analyzers/schema/registrations/lint_integration.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analyzers/schema/registrations/registration_extractor.h"
#include "analyzers/schema/registrations/registration_runner.h"
#include "analyzers/source/inline_suppressions.h"
#include "analyzers/source/lint_engine.h"
#include "analyzers/source/tu_check.h"
#include "common/json_io.h"
#include "findings/note_prefixes.h"
#include "inputs/rules_source.h"

namespace torchabi::schema {

namespace {

// Subject fact carrying one TU's registrations as JSON; removed before any
// reporter sees the report.
constexpr const char* kFact = "schema.registrations";

class RegistrationExtraction final : public source::TuCheck {
public:
  void run(source::CheckContext& ctx) override {
    std::ifstream in(ctx.tu.main_file(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    // Most TUs register nothing; the AST walk is skipped for them.
    if (!mentions_registration_api(text.str())) return;
    ctx.subject().facts.emplace_back(kFact, json_io::dump(nlohmann::json(extract_registrations(ctx.tu))));
  }
};

// The `torchabi: ignore[...]` comments of one file, read as text: the lint
// engine applied the ones it saw through libclang's tokens before these
// findings existed. A suppression without a reason is reported by the lint
// engine already; it still suppresses.
std::vector<source::InlineSuppression> suppressions_in(const std::string& path) {
  std::vector<source::InlineSuppression> out;
  std::ifstream in(path);
  std::string line;
  for (uint32_t number = 1; std::getline(in, line); ++number) {
    const auto tag = line.find("torchabi:");
    if (tag == std::string::npos) continue;
    const auto slashes = line.rfind("//", tag), block = line.rfind("/*", tag);
    const auto start = slashes == std::string::npos ? block
                       : block == std::string::npos ? slashes
                                                    : std::max(slashes, block);
    if (start == std::string::npos) continue;
    auto s = source::parse_suppression_comment(std::string_view(line).substr(start));
    if (!s) continue;
    s->file = path;
    s->line = number;
    s->column = static_cast<uint32_t>(start + 1);
    out.push_back(std::move(*s));
  }
  return out;
}

std::vector<TuRegistrations> take_registrations(findings::Report& report) {
  std::vector<TuRegistrations> out;
  // A file compiled in several configurations (kernel-builder's binding per
  // backend) registers its ops once per build, and each build is its own
  // library: its first configuration's registrations stand for the file, or
  // every op would look defined twice.
  std::set<std::string> files;
  for (const auto& json : report.take_facts(kFact)) {
    TuRegistrations r = json_io::parse(json).get<TuRegistrations>();
    if (files.insert(r.tu).second) out.push_back(std::move(r));
  }
  return out;
}

// The translation units whose parse a non-stable include broke
// (source/broken_parse.h), by absolute path: what the registration checks
// conclude from their AST (a dispatch key the macro's expansion lost) rests
// on it.
std::map<std::string, std::string> broken_parses(const findings::Report& report) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& s : report.subjects) {
    if (s.kind != "translation-unit") continue;
    for (const auto& [k, v] : s.facts)
      if (k == findings::kParseBrokenBy)
        out[std::filesystem::absolute(s.path, ec).lexically_normal().string()] = v;
  }
  return out;
}

}  // namespace

void register_registration_extraction() {
  // The id is part of lint's cache key: bump it when the extracted data changes.
  source::register_tu_check("schema-registrations-v7", [] { return std::make_unique<RegistrationExtraction>(); });
}

void RegistrationInputs::prepare(const std::vector<std::string>& project_roots) noexcept {
  try {
    RegistrationEnv env = RegistrationEnv::load(inputs::RulesSource::current());
    env.python = scan_python_sources(project_roots);
    env.python_ops = read_python_ops(project_roots);
    env_ = std::move(env);
  } catch (...) {
    error_ = std::current_exception();
  }
}

RegistrationEnv RegistrationInputs::take() {
  if (error_) std::rethrow_exception(error_);
  return std::move(*env_);
}

void add_registration_checks(findings::Report& report, const std::vector<std::string>& project_roots,
                             bool whole_project, RegistrationInputs* inputs) {
  std::vector<TuRegistrations> all = take_registrations(report);
  if (all.empty()) return;
  RegistrationInputs own;
  if (!inputs || !inputs->prepared()) {
    own.prepare(project_roots);
    inputs = &own;
  }
  RegistrationEnv env = inputs->take();
  RegistrationOutcome outcome = check_registrations(all, env, whole_project);

  std::map<std::string, std::vector<source::InlineSuppression>> by_file;
  const auto broken = broken_parses(report);
  for (auto& f : outcome.findings) {
    std::error_code ec;
    const auto cause = broken.find(std::filesystem::absolute(f.location.file, ec).lexically_normal().string());
    if (cause != broken.end() && !(f.severity && *f.severity == findings::Severity::Note)) {
      const std::string because = std::string(findings::kRestsOnBrokenParse) + cause->second;
      f.severity = findings::Severity::Note;
      f.message += " (" + because + ")";
      f.notes.push_back(because + ": the registration was read from what that parse kept; fix the include first");
    }
    auto [it, added] = by_file.try_emplace(f.location.file);
    if (added && !f.location.file.empty()) it->second = suppressions_in(f.location.file);
    if (std::any_of(it->second.begin(), it->second.end(), [&](const auto& s) { return source::covers(s, f); })) {
      ++report.suppressed;
      continue;
    }
    report.findings.push_back(std::move(f));
  }
  for (auto& s : outcome.subjects) report.subjects.push_back(std::move(s));
  source::shorten_paths(report);
}

}  // namespace torchabi::schema
