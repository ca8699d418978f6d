// A bounds-checked, read-only view of the dynamic-linking tables of a 64-bit
// ELF shared library: .dynsym, .dynstr, .dynamic and the GNU symbol versions
// (.gnu.version, .gnu.version_d, .gnu.version_r). Built on
// libelf over bytes the caller owns (a MappedFile or a wheel member), so the
// cost is the section header table plus the tables read — never the whole file
// (libtorch_cpu.so is ~120 MB, its dynamic tables ~4 MB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

typedef struct Elf Elf;  // libelf's handle; kept out of this header

namespace torchabi::inputs {

struct DynSymbol {
  std::string_view name;
  unsigned char bind = 0;        // STB_LOCAL / STB_GLOBAL / STB_WEAK / STB_GNU_UNIQUE
  unsigned char type = 0;        // STT_FUNC / STT_OBJECT / ...
  unsigned char visibility = 0;  // STV_DEFAULT / STV_PROTECTED / ...
  bool defined = false;          // false: an import (st_shndx == SHN_UNDEF)
  // .gnu.version says the symbol is not the default version (foo@V, not foo@@V)
  // or is local: it does not take part in ordinary symbol binding.
  bool hidden_version = false;
  // The .gnu.version index without the hidden bit: 0 local, 1 global
  // (unversioned), >= 2 a version defined (.gnu.version_d) or needed
  // (.gnu.version_r) by this library; see ElfView::version().
  uint16_t version = 1;
};

// What a .gnu.version index names. For a definition: the version it is
// defined in ("GLIBC_2.34"); for an import: the version it requires and the
// library (DT_NEEDED name) expected to define it.
struct SymbolVersion {
  std::string_view name;  // empty for local/global (unversioned) indices
  std::string_view file;  // imports: the verneed file; empty for definitions
  bool base = false;      // the VER_FLG_BASE definition (named after the library itself)
  bool weak = false;      // VER_FLG_WEAK: a missing version is not fatal
};

// One version a library requires of one of its DT_NEEDED libraries.
struct VersionNeed {
  std::string_view file;  // "libc.so.6"
  std::string_view name;  // "GLIBC_2.34"
  uint16_t index = 0;
  bool weak = false;
};

class ElfView {
public:
  // `bytes` must outlive the view. `name` labels every error ("x.so",
  // "w.whl!pkg/x.so"). Throws InputError (one line naming `name`) for anything
  // that is not a 64-bit ELF shared object or executable of a supported
  // architecture, or whose tables are truncated or inconsistent.
  ElfView(std::span<const std::byte> bytes, std::string name);
  ~ElfView();
  ElfView(const ElfView&) = delete;
  ElfView& operator=(const ElfView&) = delete;

  const std::string& name() const { return name_; }
  uint16_t machine() const { return machine_; }
  const char* machine_name() const;

  // Entry 0 of .dynsym is the reserved null symbol; symbol(0) is valid but empty.
  size_t symbol_count() const { return sym_count_; }
  // Throws InputError when the entry's name lies outside .dynstr. Without
  // `with_name` the name is left empty and .dynstr is not touched: callers
  // filter on binding first and read names only for the symbols they keep.
  DynSymbol symbol(size_t index, bool with_name = true) const;

  const std::vector<std::string_view>& needed() const { return needed_; }  // DT_NEEDED, in order
  std::string_view soname() const { return soname_; }                      // DT_SONAME or empty
  // Where the dynamic linker looks for DT_NEEDED names first ("$ORIGIN/../lib:/opt/x"),
  // unexpanded; empty when absent. DT_RPATH counts only without DT_RUNPATH.
  std::string_view runpath() const { return runpath_; }
  std::string_view rpath() const { return rpath_; }

  // GNU symbol versions. `version(i)` is empty for indices 0 and 1 and for
  // indices no table names (a damaged .gnu.version entry is not fatal: the
  // dynamic linker would treat the symbol as unversioned too).
  SymbolVersion version(uint16_t index) const;
  // The version names this library defines (.gnu.version_d), base excluded.
  const std::vector<std::string_view>& version_definitions() const { return version_defs_; }
  // True when the library has a .gnu.version_d at all: then its unversioned
  // exports carry the base version and no longer satisfy versioned imports.
  bool defines_versions() const { return has_verdef_; }
  // Every version it requires (.gnu.version_r), in table order.
  const std::vector<VersionNeed>& version_needs() const { return version_needs_; }

  // Architectures whose libraries torchabi audits: those PyTorch publishes
  // wheels for (x86-64 and AArch64, both LP64 with the Itanium C++ ABI).
  static bool supported_machine(uint16_t machine);

private:
  [[noreturn]] void fail(const std::string& what) const;
  std::string_view string_at(const char* table, size_t size, uint64_t offset, const char* what) const;
  void read_sections();
  void read_dynamic(const void* data, size_t size, const char* strtab, size_t strsize);
  void read_verdef(const std::byte* data, size_t size, size_t count, const char* strtab, size_t strsize);
  void read_verneed(const std::byte* data, size_t size, size_t count, const char* strtab, size_t strsize);
  void set_version(uint16_t index, const SymbolVersion& v);

  std::string name_;
  std::span<const std::byte> bytes_;
  Elf* elf_ = nullptr;
  uint16_t machine_ = 0;

  const void* syms_ = nullptr;  // Elf64_Sym[sym_count_], possibly unaligned
  size_t sym_count_ = 0;
  const char* dynstr_ = nullptr;
  size_t dynstr_size_ = 0;
  const std::byte* versym_ = nullptr;  // sym_count_ uint16 entries, or null

  std::vector<std::string_view> needed_;
  std::string_view soname_;
  std::string_view runpath_, rpath_;

  std::vector<SymbolVersion> versions_;  // by .gnu.version index
  std::vector<std::string_view> version_defs_;
  std::vector<VersionNeed> version_needs_;
  bool has_verdef_ = false;
};

}  // namespace torchabi::inputs
