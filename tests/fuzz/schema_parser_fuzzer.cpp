// fuzz-links: torchabi_schema
//
// Feeds arbitrary bytes to the schema parser. Besides "no crash, no hang",
// every schema that parses must print to text that parses back to the same
// tree, and printing must be stable; an error must point inside the input.
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

#include "analyzers/schema/default_rules.h"
#include "analyzers/schema/parser.h"
#include "analyzers/schema/printer.h"

using namespace torchabi::schema;

namespace {

[[noreturn]] void fail(const char* what, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "%s\ninput:  %.*s\ndetail: %s\n", what, static_cast<int>(input.size()),
               input.data(), detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ParseOptions options;
  options.type_variables = TypeVariables::Always;

  SchemaSpans spans;
  auto parsed = parse_schema(text, options, &spans);
  if (auto* e = std::get_if<ParseError>(&parsed)) {
    if (e->offset > size || e->message.empty() || e->column == 0 || e->line == 0)
      fail("error outside the input or without a message", text, e->display());
  } else {
    const FunctionSchema& tree = std::get<FunctionSchema>(parsed);
    if (spans.arguments.size() != tree.arguments.size() ||
        spans.defaults.size() != tree.arguments.size() ||
        spans.returns.size() != tree.returns.size())
      fail("spans do not match the tree", text, to_string(tree));
    std::string printed = to_string(tree);
    auto again = parse_schema(printed, options);
    if (auto* e = std::get_if<ParseError>(&again))
      fail("printed schema does not parse", text, printed + "  ->  " + e->display());
    if (!(std::get<FunctionSchema>(again) == tree))
      fail("printed schema parses to a different tree", text, printed);
    if (to_string(std::get<FunctionSchema>(again)) != printed)
      fail("printing is not stable", text, printed);
    (void)questionable_defaults(tree);
  }

  // The other entry points must hold up to the same input.
  (void)parse_operator_name(text);
  (void)parse_schema_or_name(text);
  return 0;
}
