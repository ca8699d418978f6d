#include <algorithm>
#include <filesystem>
#include <mutex>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/tu_check.h"

namespace torchabi::source {

const std::vector<Token>& CheckContext::tokens(const std::string& file) {
  auto it = tokens_.find(file);
  if (it != tokens_.end()) return it->second;
  return tokens_.emplace(file, tu.tokens(file)).first->second;
}

const std::vector<std::pair<const Reference*, ApiClass>>& CheckContext::classified_references() {
  if (!classified_) {
    classified_.emplace();
    for (const auto& r : tu.references()) classified_->emplace_back(&r, classify_reference(r, env));
  }
  return *classified_;
}

bool CheckContext::covered_by_reference(const std::string& file, uint32_t offset) {
  if (!covered_built_) {
    covered_built_ = true;
    for (const auto& r : tu.references()) {
      const Range& q = r.qualified_range;
      covered_[q.file].emplace_back(q.begin, std::max(q.end, r.range.end));
    }
  }
  auto it = covered_.find(file);
  if (it == covered_.end()) return false;
  for (auto [b, e] : it->second)
    if (offset >= b && offset < std::max(e, b + 1)) return true;
  return false;
}

findings::Location location_of(const Range& r) {
  findings::Location l;
  l.file = r.file;
  l.line = r.line;
  l.column = r.column;
  return l;
}

findings::FixIt make_fix(const Range& r, std::string replacement, bool safe, std::string description) {
  findings::FixIt f;
  f.file = r.file;
  f.begin_offset = r.begin;
  f.end_offset = r.end;
  f.replacement = std::move(replacement);
  f.safety = safe ? findings::FixSafety::Safe : findings::FixSafety::Unsafe;
  f.description = std::move(description);
  return f;
}

std::string display_path(const std::string& abs_path) { return abs_path; }

std::string include_site(const IncludeDirective& d) { return display_path(d.includer) + ":" + std::to_string(d.range.line); }

namespace {

std::vector<std::pair<std::string, TuCheckFactory>>& registry() {
  static std::vector<std::pair<std::string, TuCheckFactory>> r;
  return r;
}
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

void register_tu_check(const std::string& id, TuCheckFactory factory) {
  std::lock_guard lock(registry_mutex());
  for (auto& [existing, f] : registry())
    if (existing == id) {
      f = std::move(factory);
      return;
    }
  registry().emplace_back(id, std::move(factory));
}

std::vector<std::unique_ptr<TuCheck>> make_lint_checks() {
  std::vector<std::unique_ptr<TuCheck>> checks;
  checks.push_back(checks::make_include_check());
  checks.push_back(checks::make_reference_check());
  checks.push_back(checks::make_macro_check());
  checks.push_back(checks::make_preprocessor_traps_check());
  checks.push_back(checks::make_shim_declaration_check());
  // Before the target check: its advice depends on whether definitions are missing.
  checks.push_back(checks::make_undefined_stable_function_check());
  checks.push_back(checks::make_target_version_check());
  checks.push_back(checks::make_template_use_check());
  checks.push_back(checks::make_inactive_branch_check());
  checks.push_back(checks::make_version_macro_check());
  checks.push_back(checks::make_stream_id_cast_check());
  checks.push_back(checks::make_dispatcher_scalar_check());
  // After target_version_check: they read its subject facts and leave the
  // errors it explained alone; before parse_status_check, which counts the
  // errors nobody explained.
  checks.push_back(checks::make_hidden_api_check());
  checks.push_back(checks::make_macro_not_in_headers_check());
  checks.push_back(checks::make_header_error_check());
  checks.push_back(checks::make_build_floor_check());
  checks.push_back(checks::make_parse_status_check());
  checks.push_back(checks::make_torch_headers_found_check());
  std::lock_guard lock(registry_mutex());
  for (auto& [id, f] : registry()) checks.push_back(f());
  return checks;
}

std::string lint_checks_id() {
  std::string id = "builtin-v8";  // v8: findings resting on a parse a non-stable include broke are notes
  std::lock_guard lock(registry_mutex());
  for (auto& [name, f] : registry()) id += "+" + name;
  return id;
}

}  // namespace torchabi::source
