#include "analyzers/source/token_scan_context.h"

#include <cctype>

#include "analyzers/source/cursor_utils.h"

namespace torchabi::source {

TokenScanContext::TokenScanContext(const ParsedTu& tu, const LintEnv& env) : tu_(tu), env_(env) {}

const AstRegions& TokenScanContext::regions() {
  if (!regions_) regions_ = collect_ast_regions(tu_, env_);
  return *regions_;
}

void TokenScanContext::build_resolution() {
  if (resolution_built_) return;
  resolution_built_ = true;
  for (const auto& r : tu_.references()) {
    const ApiClass cls = classify_reference(r, env_);
    if (cls == ApiClass::Unstable) torch_types_ = true;
    if (r.via != Via::Spelled || !r.qualified_range.valid()) continue;
    std::string_view text = tu_.file_text(r.qualified_range.file);
    if (r.qualified_range.end > text.size() || r.qualified_range.end <= r.qualified_range.begin) continue;
    std::string written(text.substr(r.qualified_range.begin, r.qualified_range.end - r.qualified_range.begin));
    if (written.starts_with("::")) written.erase(0, 2);
    std::string compact;
    for (char c : written)
      if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    if (cls != ApiClass::Unstable) {
      not_unstable_.insert(compact);
      not_unstable_.insert(r.qualified);
      continue;
    }
    if (compact.find("::") != std::string::npos) {
      spellings_.emplace(compact, r.qualified);
    } else if (compact == r.name && (r.kind == EntityKind::Type || r.kind == EntityKind::Template ||
                                     r.kind == EntityKind::Function || r.kind == EntityKind::EnumConstant ||
                                     r.kind == EntityKind::Variable)) {
      // Unqualified in this file: per file, since `using namespace at` is.
      unqualified_[r.range.file].emplace(compact,
                                         TokenScanRules::Resolved{r.qualified, r.kind == EntityKind::Function});
    }
  }
  for (const auto& d : tu_.includes())
    if (d.kind == HeaderKind::Unstable && tu_.is_project_file(d.includer)) torch_types_ = true;
}

TokenScanRules TokenScanContext::rules_for(const std::string& file) {
  build_resolution();
  TokenScanRules r;
  r.env = &env_;
  r.torch_types = torch_types_;
  // Macros without a replacements.yaml entry are not looked up in the TU's
  // torch headers: the macro check reports those only when their expansion
  // uses unstable API, which the tokens cannot show (C10_HOST_DEVICE is fine).
  r.variable_type = [this, file](std::string_view n, uint32_t offset) { return regions().variable_type(file, n, offset); };
  static const std::unordered_map<std::string, TokenScanRules::Resolved> kNone;
  auto it = unqualified_.find(file);
  r.unqualified_names = it == unqualified_.end() ? &kNone : &it->second;
  r.resolved_spellings = &spellings_;
  r.known_not_unstable = [this](std::string_view q) { return not_unstable_.count(std::string(q)) > 0; };
  return r;
}

}  // namespace torchabi::source
