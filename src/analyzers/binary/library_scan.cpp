#include "analyzers/binary/library_scan.h"

#include <algorithm>
#include <elf.h>

#include "inputs/elf_view.h"
#include "inputs/object_image.h"
#include "inputs/python/cpython_abi.h"

namespace torchabi::binary {

namespace {

bool exported_weak_definition(const inputs::DynSymbol& s) {
  return s.defined && (s.bind == STB_WEAK || s.bind == STB_GNU_UNIQUE) &&
         (s.visibility == STV_DEFAULT || s.visibility == STV_PROTECTED) && !s.hidden_version;
}

void add_weak_export(LibraryScan& scan, std::string_view name, SymbolClassifier& classifier) {
  SymbolClass c = classifier.classify(name, /*want_text=*/scan.leaked_count < LibraryScan::kLeakedExamples);
  if (c.kind != SymbolKind::UnstableCxx) return;
  if (scan.leaked_count++ < LibraryScan::kLeakedExamples)
    scan.leaked_examples.push_back({std::string(name), std::move(c.demangled), std::move(c.ns), std::move(c.qualified)});
}

void add_import(LibraryScan& scan, std::string_view name, SymbolClassifier& classifier) {
  SymbolClass c = classifier.classify(name, /*want_text=*/true);
  switch (c.kind) {
    case SymbolKind::StableShim: scan.stable_shims.push_back({std::string(name), c.function}); break;
    case SymbolKind::UnknownShim: scan.unknown_shims.emplace_back(name); break;
    case SymbolKind::UnstableCxx:
      scan.unstable_imports.push_back({std::string(name), std::move(c.demangled), std::move(c.ns), std::move(c.qualified)});
      break;
    case SymbolKind::StableCxx:
      scan.stable_cxx_imports.push_back(
          {std::string(name), std::move(c.demangled), std::move(c.ns), std::move(c.qualified)});
      break;
    case SymbolKind::Other:
      ++scan.other_imports;
      if (inputs::is_python_c_api_symbol(name)) scan.python_imports.emplace_back(name);
      break;
  }
}

// Symbol tables are ordered by hash, not name: sort so reports are stable.
void sort_scan(LibraryScan& scan) {
  std::sort(scan.stable_shims.begin(), scan.stable_shims.end(),
            [](const auto& a, const auto& b) { return a.symbol < b.symbol; });
  std::sort(scan.unknown_shims.begin(), scan.unknown_shims.end());
  auto by_text = [](const CxxSymbol& a, const CxxSymbol& b) { return a.demangled < b.demangled; };
  std::sort(scan.unstable_imports.begin(), scan.unstable_imports.end(), by_text);
  std::sort(scan.stable_cxx_imports.begin(), scan.stable_cxx_imports.end(), by_text);
  std::sort(scan.python_imports.begin(), scan.python_imports.end());
  // A universal slice or a PE library may import one name from two places.
  scan.python_imports.erase(std::unique(scan.python_imports.begin(), scan.python_imports.end()), scan.python_imports.end());
}

}  // namespace

LibraryScan scan_library(const inputs::ObjectImage& image, SymbolClassifier& classifier) {
  LibraryScan scan;
  scan.format = inputs::to_string(image.format);
  scan.machine = image.machine;
  scan.soname = image.install_name;
  scan.needed = image.needed;
  scan.min_os = image.min_os;
  for (const auto& imp : image.imports) add_import(scan, imp.name, classifier);
  for (const auto& w : image.weak_exports) add_weak_export(scan, w, classifier);
  sort_scan(scan);
  return scan;
}

LibraryScan scan_library(const inputs::ElfView& elf, SymbolClassifier& classifier) {
  LibraryScan scan;
  scan.machine = elf.machine_name();
  scan.soname = std::string(elf.soname());
  for (auto n : elf.needed()) scan.needed.emplace_back(n);
  for (const auto& v : elf.version_needs()) scan.needed_versions.push_back({std::string(v.file), std::string(v.name)});

  for (size_t i = 1; i < elf.symbol_count(); ++i) {
    const inputs::DynSymbol info = elf.symbol(i, /*with_name=*/false);
    const bool import = !info.defined;
    if (!import && !exported_weak_definition(info)) continue;
    const inputs::DynSymbol s = elf.symbol(i);
    if (s.name.empty()) continue;

    if (import) add_import(scan, s.name, classifier);
    else add_weak_export(scan, s.name, classifier);
  }
  sort_scan(scan);
  return scan;
}

}  // namespace torchabi::binary
