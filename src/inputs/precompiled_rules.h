// The embedded rules' YAML as the build read it (src/cli/rules_precompiler.cpp
// writes it as C++ at build time, with the readers the run-time would use):
// parsing YAML with yaml-cpp was the biggest cost left in a process that
// reads a few rules files at start (releases, namespaces, the documentation
// of the rules a report names; bench/audit). Only the rules compiled in have
// it; --rules-dir reads its YAML as always.
#pragma once

#include <cstddef>

namespace torchabi::inputs::precompiled {

struct Namespace {
  bool stable;  // namespaces.yaml's `stable:` list, else `unstable:`
  const char* name;
  const char* why;
};

// A findings::RuleDoc, read and checked (severity and fix as their enums' values).
struct RuleDoc {
  const char* id;
  const char* group;
  int severity;
  const char* summary;
  const char* description;
  const char* instead;
  int fix;
  const char* example_fires;
  const char* example_clean;
};

struct Rules {
  const char* digest;  // of the rules read (rules_release.h): checked against the embedded rules'
  // api/releases.yaml
  const char* baseline;
  const char* latest;
  const char* const* releases;
  size_t release_count;
  // api/namespaces.yaml, in the file's order
  const Namespace* namespaces;
  size_t namespace_count;
  // checks/*.yaml, sorted by id
  const RuleDoc* rule_docs;
  size_t rule_doc_count;
  // api/stable_c_functions.tsv, checked and indexed: its size, each row's
  // offset and length (pairs) in the file's order, and the rows sorted by
  // name (the first of equal names first).
  size_t catalog_bytes;
  const unsigned* catalog_rows;
  size_t catalog_row_count;
  const unsigned* catalog_by_name;
};

// The precompiled form of the embedded rules when this executable links one
// (torchabi does) and it was made from the same rules (digest); nullptr
// otherwise (tests, the precompiler itself): read the YAML then.
const Rules* embedded();

}  // namespace torchabi::inputs::precompiled
