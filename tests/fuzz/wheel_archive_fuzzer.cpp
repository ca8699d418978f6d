// Fuzzes the wheel reader (libzip over memory), METADATA and requirement
// parsing, and the audit of each library member. Any input must end in a
// report or one InputError; crashes, leaks and sanitizer reports are bugs.
// fuzz-links: torchabi_binary
#include <cstddef>
#include <cstdint>
#include <span>

#include "analyzers/binary/symbol_classifier.h"
#include "analyzers/binary/wheel_audit.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace torchabi;
  static binary::SymbolClassifier classifier =
      binary::SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current());
  try {
    findings::Report report;
    binary::audit_wheel("fuzz.whl", std::span(reinterpret_cast<const std::byte*>(data), size), classifier, {},
                        report);
  } catch (const InputError&) {
  }
  return 0;
}
