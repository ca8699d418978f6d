// Reads what one ELF library imports from and exports to PyTorch: the facts
// the verdict, the version floor and the findings are derived from.
#pragma once

#include <string>
#include <vector>

#include "analyzers/binary/symbol_classifier.h"

namespace torchabi::inputs {
class ElfView;
struct CFunction;
struct ObjectImage;
}  // namespace torchabi::inputs

namespace torchabi::binary {

struct ShimImport {
  std::string symbol;
  const inputs::CFunction* function = nullptr;
};

struct CxxSymbol {
  std::string mangled;
  std::string demangled;
  std::string ns;  // the namespace that decided its class, e.g. "c10"
  std::string qualified;  // the entity's name without parameters, e.g. "torch::stable::Tensor::dim"
};

// A symbol version an ELF library requires of one of its DT_NEEDED libraries.
struct NeededVersion {
  std::string file;  // "libc.so.6"
  std::string name;  // "GLIBC_2.34"
};

struct LibraryScan {
  std::string format = "ELF";        // "ELF", "Mach-O", "PE/COFF"
  std::string machine;               // "x86-64"
  std::string soname;                // DT_SONAME, LC_ID_DYLIB, the PE export table's DLL name
  std::vector<std::string> needed;   // DT_NEEDED, in order
  std::vector<ShimImport> stable_shims;
  std::vector<std::string> unknown_shims;
  std::vector<CxxSymbol> unstable_imports;
  std::vector<CxxSymbol> stable_cxx_imports;
  size_t other_imports = 0;
  // CPython C API symbols it imports ("PyLong_FromLong"), sorted: what the
  // abi3 checks read. Counted in other_imports too.
  std::vector<std::string> python_imports;
  std::vector<NeededVersion> needed_versions;  // ELF .gnu.version_r, in table order
  std::string min_os;                          // Mach-O deployment target ("11.0")
  // Weak (or STB_GNU_UNIQUE) definitions of unstable PyTorch C++ that the
  // library exports: copies of inline code the dynamic linker may interpose.
  size_t leaked_count = 0;
  std::vector<CxxSymbol> leaked_examples;  // the first few, demangled

  static constexpr size_t kLeakedExamples = 8;
};

// Reads only the symbols that matter: imports, and weak exported definitions.
// Strong definitions (the bulk of a big library) are skipped by their binding
// without reading their names. Throws InputError on corrupt tables.
LibraryScan scan_library(const inputs::ElfView& elf, SymbolClassifier& classifier);

// The same for one architecture of a Mach-O or PE library: its imports and
// (Mach-O) the weak definitions it exports, which dyld coalesces across
// images as the ELF dynamic linker interposes weak symbols.
LibraryScan scan_library(const inputs::ObjectImage& image, SymbolClassifier& classifier);

}  // namespace torchabi::binary
