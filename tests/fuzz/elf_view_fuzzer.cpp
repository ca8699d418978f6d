// Fuzzes the ELF view and everything the audit does with a library: symbol
// reading, classification and demangling, the report, symbol versions and
// the export table. Any input must end in a view or one InputError; crashes,
// leaks and sanitizer reports are bugs.
// fuzz-links: torchabi_binary
#include <cstddef>
#include <cstdint>
#include <span>

#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/symbol_classifier.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/elf_view.h"
#include "inputs/export_table.h"
#include "inputs/rules_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace torchabi;
  static binary::SymbolClassifier classifier =
      binary::SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current());
  try {
    inputs::ElfView elf(std::span(reinterpret_cast<const std::byte*>(data), size), "fuzz.so");
    binary::LibraryScan scan = binary::scan_library(elf, classifier);
    findings::Report report;
    findings::Location where;
    where.file = "fuzz.so";
    binary::AuditOptions options;
    options.target = TorchVersion{2, 10, 0};
    binary::report_library(scan, where, options, report);
    // What audit --torch reads of an install's libraries: versions and exports.
    for (size_t i = 0; i < elf.symbol_count(); ++i) (void)elf.version(elf.symbol(i, false).version);
    const inputs::ExportTable exports = inputs::ExportTable::read(elf);
    for (const auto& e : exports.symbols()) (void)exports.binds(e, "V");
  } catch (const InputError&) {
  }
  return 0;
}
