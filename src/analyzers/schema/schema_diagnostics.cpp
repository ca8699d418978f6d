#include "analyzers/schema/schema_diagnostics.h"

#include <algorithm>
#include <tuple>

#include "analyzers/schema/default_rules.h"
#include "analyzers/schema/printer.h"

namespace torchabi::schema {

findings::Location locate(const SchemaOrigin& origin, std::string_view text, uint32_t offset) {
  findings::Location loc = origin.start;
  if (!origin.positions.empty()) {
    size_t i = std::min<size_t>(offset, origin.positions.size() - 1);
    std::tie(loc.line, loc.column) = origin.positions[i];
    if (offset >= origin.positions.size()) ++loc.column;  // just past the last byte
    return loc;
  }
  if (!origin.exact_columns) return loc;
  auto [line, column] = line_and_column(text, offset);
  loc.line = origin.start.line + line - 1;
  loc.column = line == 1 ? origin.start.column + column - 1 : column;
  return loc;
}

std::vector<std::string> caret_notes(std::string_view text, uint32_t offset) {
  // Only the line holding the offset, with tabs kept so the caret lines up.
  size_t begin = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  begin = begin == std::string_view::npos || offset == 0 ? 0 : begin + 1;
  size_t end = text.find('\n', offset);
  std::string line(text.substr(begin, end == std::string_view::npos ? text.size() - begin : end - begin));
  std::string caret;
  for (size_t i = begin; i < offset && i < text.size(); ++i) caret += text[i] == '\t' ? '\t' : ' ';
  return {line, caret + "^"};
}

std::optional<FunctionSchema> diagnose_schema(std::string_view text, const SchemaOrigin& origin,
                                              const ParseOptions& options,
                                              std::vector<findings::Finding>& out) {
  SchemaSpans spans;
  auto parsed = parse_schema(text, options, &spans);
  if (auto* e = std::get_if<ParseError>(&parsed)) {
    findings::Finding f;
    f.rule = "schema-parse-error";
    f.location = locate(origin, text, e->offset);
    f.message = "schema does not parse: " + e->message;
    f.help = "PyTorch rejects this schema when the extension registers the op; correct it at the "
             "marked column";
    f.notes = caret_notes(text, e->offset);
    if (!origin.exact_columns && origin.positions.empty()) f.notes.insert(f.notes.begin(), e->display() + " of the schema");
    out.push_back(std::move(f));
    return std::nullopt;
  }
  FunctionSchema schema = std::get<FunctionSchema>(std::move(parsed));
  for (const QuestionableDefault& q : questionable_defaults(schema)) {
    const Argument& a = schema.arguments[q.argument];
    uint32_t at = spans.defaults[q.argument];
    findings::Finding f;
    f.rule = "schema-default-mismatch";
    f.location = locate(origin, text, at);
    f.message = "default of '" + a.name + "' does not suit its type: " + q.message;
    std::string type = to_string(a.type);
    f.help = a.default_value->kind == DefaultValue::Kind::None && !a.type.is_optional()
                 ? "declare '" + type + "? " + a.name + "' if the argument may be absent"
                 : "give '" + a.name + "' a default of type '" + type + "'";
    f.notes = caret_notes(text, at);
    out.push_back(std::move(f));
  }
  return schema;
}

}  // namespace torchabi::schema
