// Build-time tool: reads rules/ with torchabi's own readers (yaml-cpp) and
// writes their result as C++ (inputs/precompiled_rules.h), which the torchabi
// executable links: it then reads no YAML for the rules compiled in.
//
//   torchabi_rules_precompiler RULES_DIR OUT.cpp
//
// What it writes is what the run-time readers would produce from the same
// files (tests/unit/precompiled checks it); the digest ties it to them.
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "common/atomic_file.h"
#include "common/input_error.h"
#include "findings/rule_registry.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_release.h"
#include "inputs/rules_source.h"

namespace {

using namespace torchabi;

// A C++ string literal of any bytes.
std::string literal(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n\"\n    \"";
    } else if (c < 0x20 || c >= 0x7f || c == '?') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string write(const std::string& dir) {
  const inputs::RulesSource src = inputs::RulesSource::directory(dir);
  const inputs::ApiCatalog cat = inputs::ApiCatalog::load(src);
  const findings::RuleRegistry registry = findings::RuleRegistry::load(src);
  const auto& docs = registry.all();  // sorted by id (std::map)
  std::ostringstream o;
  o << "// Generated from rules/ by torchabi_rules_precompiler (src/cli/rules_precompiler.cpp). Do not edit.\n"
    << "#include \"inputs/precompiled_rules.h\"\n\nnamespace {\n\nusing namespace torchabi::inputs::precompiled;\n\n";
  o << "const char* const kReleases[] = {";
  for (const auto& r : cat.releases()) o << literal(r.str()) << ", ";
  o << "};\n\nconst Namespace kNamespaces[] = {\n";
  for (const auto& n : cat.namespaces())
    o << "    {" << (n.kind == inputs::NamespaceKind::Stable ? "true" : "false") << ", " << literal(n.ns) << ", "
      << literal(n.why) << "},\n";
  o << "};\n\nconst RuleDoc kRuleDocs[] = {\n";
  for (const auto& [id, d] : docs)
    o << "    {" << literal(d.id) << ", " << literal(d.group) << ", " << static_cast<int>(d.severity) << ",\n    "
      << literal(d.summary) << ",\n    " << literal(d.description) << ",\n    " << literal(d.instead) << ",\n    "
      << static_cast<int>(d.fix) << ", " << literal(d.example_fires) << ",\n    " << literal(d.example_clean)
      << "},\n";
  o << "};\n\nconst unsigned kCatalogRows[] = {";
  const auto spans = cat.row_spans();
  for (size_t i = 0; i < spans.size(); ++i) o << (i % 8 ? " " : "\n    ") << spans[i].first << ", " << spans[i].second << ",";
  o << "\n};\n\nconst unsigned kCatalogByName[] = {";
  const auto order = cat.rows_by_name();
  for (size_t i = 0; i < order.size(); ++i) o << (i % 16 ? " " : "\n    ") << order[i] << ",";
  // The digest of the rules embedded by this same build (from the same files):
  // the run-time check that the two belong together.
  o << "\n};\n\nconst Rules kRules = {" << literal(inputs::embedded_rules_release().digest) << ", "
    << literal(cat.baseline().str()) << ", " << literal(cat.latest().str()) << ",\n"
    << "    kReleases, sizeof kReleases / sizeof *kReleases, kNamespaces, sizeof kNamespaces / sizeof *kNamespaces,\n"
    << "    kRuleDocs, sizeof kRuleDocs / sizeof *kRuleDocs,\n    " << cat.table_bytes()
    << ", kCatalogRows, sizeof kCatalogRows / sizeof *kCatalogRows / 2, kCatalogByName};\n\n}  // namespace\n\n"
    << "extern \"C\" const torchabi::inputs::precompiled::Rules* torchabi_precompiled_rules() { return &kRules; }\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: torchabi_rules_precompiler RULES_DIR OUT.cpp\n";
    return 2;
  }
  try {
    torchabi::write_file_atomically(argv[2], write(argv[1]));
  } catch (const torchabi::InputError& e) {
    std::cerr << "torchabi_rules_precompiler: " << e.line() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "torchabi_rules_precompiler: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
