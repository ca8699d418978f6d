// Mach-O (thin and universal) and PE/COFF libraries, read through LLVM's
// Object library over bytes the caller owns (a MappedFile or a wheel member):
// what each architecture imports, from which library, and what it exports
// weakly. ELF keeps its own view (elf_view.h), which also reads GNU symbol
// versions for the load checks.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace torchabi::inputs {

enum class BinaryFormat { Elf, MachO, MachOUniversal, Pe, Unknown };

// From the first bytes only.
BinaryFormat sniff_binary(std::span<const std::byte> bytes);
const char* to_string(BinaryFormat f);

struct ImageImport {
  std::string name;     // as the C++ ABI mangles it: Mach-O's leading '_' removed
  std::string library;  // the dylib or DLL expected to define it ("" when not recorded)
  bool delay_load = false;  // PE delay-load import
  bool weak = false;        // Mach-O weak import (may be missing at load)
};

// One architecture of a library.
struct ObjectImage {
  BinaryFormat format = BinaryFormat::Unknown;  // MachO or Pe
  std::string machine;                          // "arm64", "x86-64"
  std::string install_name;                     // LC_ID_DYLIB, or the PE export table's DLL name
  std::vector<std::string> needed;              // LC_LOAD_*DYLIB, imported DLLs (delay-load last), in order
  std::vector<ImageImport> imports;
  std::vector<std::string> weak_exports;  // Mach-O weak definitions other images may coalesce with
  std::vector<std::string> exports;       // PE export table names (by name only)
  std::string min_os;                     // Mach-O deployment target ("11.0"); "" when absent
};

// Every architecture of a Mach-O or PE library (a universal binary gives one
// per slice, in file order). Throws InputError naming `name` when the bytes
// are not a Mach-O or PE library, are truncated, or are inconsistent.
std::vector<ObjectImage> read_object_image(std::span<const std::byte> bytes, const std::string& name);

}  // namespace torchabi::inputs
