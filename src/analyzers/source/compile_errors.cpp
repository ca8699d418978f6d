#include "analyzers/source/compile_errors.h"

#include "common/regex.h"

namespace torchabi::source {

std::optional<MissingName> read_missing_name(const std::string& message) {
  static const Regex kUndeclared("use of undeclared identifier '([A-Za-z_][A-Za-z0-9_:]*)'");
  static const Regex kMember(
      "no (?:member|type|template) named '([A-Za-z_][A-Za-z0-9_]*)' in (?:namespace )?'([A-Za-z_][A-Za-z0-9_:]*)'");
  static const Regex kType("unknown type name '([A-Za-z_][A-Za-z0-9_]*)'");
  static const Regex kTemplate("no template named '([A-Za-z_][A-Za-z0-9_]*)'");
  static const Regex kRequires(
      "([A-Za-z_][A-Za-z0-9_:<>]*) requires TORCH_FEATURE_VERSION >= (TORCH_VERSION_[0-9]+_[0-9]+_[0-9]+)");
  if (auto m = kRequires.search(message)) return MissingName{(*m)[1], "", TorchVersion::parse_dotted((*m)[2])};
  if (auto m = kMember.search(message)) return MissingName{(*m)[1], (*m)[2], std::nullopt};
  for (const Regex* r : {&kUndeclared, &kType, &kTemplate})
    if (auto m = r->search(message)) return MissingName{(*m)[1], "", std::nullopt};
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
