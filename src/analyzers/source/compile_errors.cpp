#include "analyzers/source/compile_errors.h"

#include <regex>

namespace torchabi::source {

std::optional<MissingName> read_missing_name(const std::string& message) {
  static const std::regex kUndeclared("use of undeclared identifier '([A-Za-z_][A-Za-z0-9_:]*)'");
  static const std::regex kMember(
      "no (?:member|type|template) named '([A-Za-z_][A-Za-z0-9_]*)' in (?:namespace )?'([A-Za-z_][A-Za-z0-9_:]*)'");
  static const std::regex kType("unknown type name '([A-Za-z_][A-Za-z0-9_]*)'");
  static const std::regex kTemplate("no template named '([A-Za-z_][A-Za-z0-9_]*)'");
  static const std::regex kRequires(
      "([A-Za-z_][A-Za-z0-9_:<>]*) requires TORCH_FEATURE_VERSION >= (TORCH_VERSION_[0-9]+_[0-9]+_[0-9]+)");
  std::smatch m;
  if (std::regex_search(message, m, kRequires))
    return MissingName{m[1].str(), "", TorchVersion::parse_dotted(m[2].str())};
  if (std::regex_search(message, m, kMember)) return MissingName{m[1].str(), m[2].str(), std::nullopt};
  for (const std::regex* r : {&kUndeclared, &kType, &kTemplate})
    if (std::regex_search(message, m, *r)) return MissingName{m[1].str(), "", std::nullopt};
  return std::nullopt;
}

const Diagnostic* project_site(const ParsedTu& tu, const Diagnostic& d) {
  if (tu.is_project_file(d.file)) return &d;
  for (const auto& n : d.notes)
    if (tu.is_project_file(n.file)) return &n;
  return nullptr;
}

bool is_error(const Diagnostic& d) {
  return d.severity == Diagnostic::Severity::Error || d.severity == Diagnostic::Severity::Fatal;
}

Range range_of(const Diagnostic& d) {
  Range r;
  r.file = d.file;
  r.line = d.line;
  r.column = d.column;
  r.begin = d.offset;
  r.end = d.offset;
  return r;
}

}  // namespace torchabi::source
