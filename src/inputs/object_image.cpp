#include "inputs/object_image.h"

#include <cstring>

#include <llvm/BinaryFormat/COFF.h>
#include <llvm/BinaryFormat/MachO.h>
#include <llvm/BinaryFormat/Magic.h>
#include <llvm/Object/COFF.h>
#include <llvm/Object/MachO.h>
#include <llvm/Object/MachOUniversal.h>
#include <llvm/Support/Endian.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBufferRef.h>

#include "common/input_error.h"

namespace torchabi::inputs {

namespace {

namespace obj = llvm::object;

llvm::StringRef as_ref(std::span<const std::byte> b) {
  return llvm::StringRef(reinterpret_cast<const char*>(b.data()), b.size());
}

template <typename T>
T take(llvm::Expected<T> e, const std::string& name, const char* what) {
  if (!e) throw InputError(name, std::string(what) + ": " + llvm::toString(e.takeError()));
  return std::move(*e);
}

void check(llvm::Error e, const std::string& name, const char* what) {
  if (e) throw InputError(name, std::string(what) + ": " + llvm::toString(std::move(e)));
}

std::string version_text(uint32_t packed) {  // xxxx.yy.zz
  std::string v = std::to_string(packed >> 16) + "." + std::to_string((packed >> 8) & 0xff);
  if (packed & 0xff) v += "." + std::to_string(packed & 0xff);
  return v;
}

std::string macho_machine(const obj::MachOObjectFile& o) {
  switch (o.getArch()) {
    case llvm::Triple::aarch64: return "arm64";
    case llvm::Triple::x86_64: return "x86-64";
    default: return o.getArchTriple().getArchName().str();
  }
}

// A symbol's name, bounded by the string table. (LLVM's getSymbolName runs
// strlen from n_strx: a table without a final NUL reads past the file, as the
// object_image fuzzer found.)
llvm::StringRef macho_symbol_name(const obj::MachOObjectFile& o, const obj::SymbolRef& sym, const std::string& name) {
  const llvm::MachO::symtab_command symtab = o.getSymtabLoadCommand();
  const llvm::StringRef data = o.getData();
  if (symtab.stroff > data.size() || symtab.strsize > data.size() - symtab.stroff)
    throw InputError(name, "the string table lies outside the file");
  const uint32_t strx = o.getSymbolTableEntry(sym.getRawDataRefImpl()).n_strx;
  if (strx >= symtab.strsize) throw InputError(name, "a symbol name lies outside the string table");
  const char* s = data.data() + symtab.stroff + strx;
  const size_t room = symtab.strsize - strx;
  const size_t n = ::strnlen(s, room);
  if (n == room) throw InputError(name, "a symbol name runs past the end of the string table");
  return llvm::StringRef(s, n);
}

ObjectImage read_macho(const obj::MachOObjectFile& o, const std::string& name) {
  const uint32_t type = o.getHeader().filetype;
  if (type != llvm::MachO::MH_DYLIB && type != llvm::MachO::MH_BUNDLE && type != llvm::MachO::MH_EXECUTE)
    throw InputError(name, "a Mach-O file that is not a library, bundle or executable (an object file?)");
  ObjectImage img;
  img.format = BinaryFormat::MachO;
  img.machine = macho_machine(o);
  for (const auto& lc : o.load_commands()) {
    switch (lc.C.cmd) {
      case llvm::MachO::LC_ID_DYLIB:
      case llvm::MachO::LC_LOAD_DYLIB:
      case llvm::MachO::LC_LOAD_WEAK_DYLIB:
      case llvm::MachO::LC_REEXPORT_DYLIB:
      case llvm::MachO::LC_LAZY_LOAD_DYLIB:
      case llvm::MachO::LC_LOAD_UPWARD_DYLIB: {
        const auto d = o.getDylibIDLoadCommand(lc);
        if (d.dylib.name >= d.cmdsize) throw InputError(name, "a dylib load command names a string outside itself");
        const char* s = lc.Ptr + d.dylib.name;
        const std::string path(s, strnlen(s, d.cmdsize - d.dylib.name));
        if (lc.C.cmd == llvm::MachO::LC_ID_DYLIB) img.install_name = path;
        else img.needed.push_back(path);
        break;
      }
      case llvm::MachO::LC_BUILD_VERSION:
        if (o.getBuildVersionLoadCommand(lc).platform == llvm::MachO::PLATFORM_MACOS)
          img.min_os = version_text(o.getBuildVersionLoadCommand(lc).minos);
        break;
      case llvm::MachO::LC_VERSION_MIN_MACOSX: img.min_os = version_text(o.getVersionMinLoadCommand(lc).version); break;
      default: break;
    }
  }
  for (const obj::SymbolRef& sym : o.symbols()) {
    const uint32_t flags = take(sym.getFlags(), name, "unreadable symbol");
    if (!(flags & obj::SymbolRef::SF_Global)) continue;
    llvm::StringRef n = macho_symbol_name(o, sym, name);
    if (n.starts_with("_")) n = n.drop_front();  // C and C++ names carry one
    if (flags & obj::SymbolRef::SF_Undefined) {
      ImageImport imp;
      imp.name = n.str();
      imp.weak = flags & obj::SymbolRef::SF_Weak;
      // Two-level namespace: the library ordinal of n_desc, 1-based into
      // the load commands above; 0 self, 0xfe the executable, 0xff flat lookup.
      const uint32_t ordinal = llvm::MachO::GET_LIBRARY_ORDINAL(o.getSymbolTableEntry(sym.getRawDataRefImpl()).n_desc);
      if (ordinal >= 1 && ordinal <= img.needed.size()) imp.library = img.needed[ordinal - 1];
      else if (ordinal == llvm::MachO::DYNAMIC_LOOKUP_ORDINAL) imp.library = "(flat lookup)";
      img.imports.push_back(std::move(imp));
    } else if (flags & obj::SymbolRef::SF_Weak) {
      img.weak_exports.push_back(n.str());
    }
  }
  return img;
}

std::string coff_machine(uint16_t m) {
  switch (m) {
    case llvm::COFF::IMAGE_FILE_MACHINE_AMD64: return "x86-64";
    case llvm::COFF::IMAGE_FILE_MACHINE_ARM64: return "arm64";
    case llvm::COFF::IMAGE_FILE_MACHINE_I386: return "x86";
    default: {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%04x", m);
      return buf;
    }
  }
}

// True when [p, p + size) lies inside the file: LLVM's RVA lookups bound a
// range by the section's virtual size, and a damaged file's raw data
// (SizeOfRawData, PointerToRawData) may end sooner.
bool in_file(const obj::COFFObjectFile& o, const void* p, size_t size) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  const auto begin = reinterpret_cast<uintptr_t>(o.getData().begin());
  const auto end = reinterpret_cast<uintptr_t>(o.getData().end());
  return at >= begin && at <= end && size <= end - at;
}

// `size` bytes at `rva`, inside one section.
const uint8_t* pe_bytes(const obj::COFFObjectFile& o, uint32_t rva, uint32_t size, const std::string& name,
                        const char* what) {
  llvm::ArrayRef<uint8_t> bytes;
  check(o.getRvaAndSizeAsBytes(rva, size, bytes), name, what);
  if (!in_file(o, bytes.data(), size)) throw InputError(name, std::string(what) + " lies outside the file");
  return bytes.data();
}

// A NUL-terminated string at `rva`, bounded by the end of the file.
llvm::StringRef pe_string(const obj::COFFObjectFile& o, uint32_t rva, const std::string& name, const char* what) {
  uintptr_t p = 0;
  check(o.getRvaPtr(rva, p, what), name, what);
  const char* s = reinterpret_cast<const char*>(p);
  const char* end = o.getData().end();
  if (!in_file(o, s, 1)) throw InputError(name, std::string(what) + " lies outside the file");
  const size_t n = ::strnlen(s, static_cast<size_t>(end - s));
  if (s + n == end) throw InputError(name, std::string(what) + " runs past the end of the file");
  return llvm::StringRef(s, n);
}

// The export table's names, read from its name pointer table in one pass.
// (LLVM's ExportDirectoryEntryRef::getSymbolName searches that table for each
// ordinal: quadratic, 82% of the audit of a DLL with 40,000 exports.)
void read_pe_exports(const obj::COFFObjectFile& o, ObjectImage& img, const std::string& name) {
  const obj::export_directory_table_entry* table = o.getExportTable();
  if (!table) return;
  if (!in_file(o, table, sizeof *table)) throw InputError(name, "the export table lies outside the file");
  // A damaged DLL name costs only the name: the exports still matter.
  try {
    img.install_name = pe_string(o, table->NameRVA, name, "the export table's DLL name").str();
  } catch (const InputError&) {
  }
  const uint32_t count = table->NumberOfNamePointers;
  if (count == 0) return;
  if (uint64_t(count) * 4 > UINT32_MAX) throw InputError(name, "the export table claims too many names");
  const uint8_t* pointers = pe_bytes(o, table->NamePointerRVA, count * 4, name, "the export name pointers");
  img.exports.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t rva = llvm::support::endian::read32le(pointers + size_t(i) * 4);
    const llvm::StringRef sym = pe_string(o, rva, name, "an export name");
    if (!sym.empty()) img.exports.push_back(sym.str());
  }
}


// One import name table (the import lookup table, or the delay-load name
// table): entries until a zero one, each an ordinal or the RVA of a hint/name
// entry. Every read is bounded by its section; LLVM's own iterators and
// getName() run strlen over whatever follows.
void read_pe_thunks(const obj::COFFObjectFile& o, uint32_t rva, const std::string& dll, bool delay, ObjectImage& img,
                    const std::string& name) {
  const uint32_t entry = o.is64() ? 8 : 4;
  const uint64_t ordinal_flag = o.is64() ? uint64_t(1) << 63 : uint64_t(1) << 31;
  for (uint64_t at = rva;; at += entry) {
    if (at + entry > UINT32_MAX) throw InputError(name, "an import name table runs past the image");
    const uint8_t* p = pe_bytes(o, static_cast<uint32_t>(at), entry, name, "an import name table entry");
    const uint64_t v = entry == 8 ? llvm::support::endian::read64le(p) : llvm::support::endian::read32le(p);
    if (v == 0) return;
    if (v & ordinal_flag) continue;  // by ordinal: no name to classify
    const uint32_t hint_name = static_cast<uint32_t>(v & 0x7fffffff);
    if (hint_name > UINT32_MAX - 2) throw InputError(name, "an import name lies outside the image");
    img.imports.push_back({pe_string(o, hint_name + 2, name, "an import name").str(), dll, delay, false});
  }
}

// The import directory (20-byte entries) and the delay-load directory
// (32-byte entries), read from their data directories.
void read_pe_imports(const obj::COFFObjectFile& o, ObjectImage& img, const std::string& name) {
  struct Table {
    uint32_t index, entry_size, name_at, names_at, fallback_at;  // field offsets within an entry
    bool delay;
  };
  // Import: OriginalFirstThunk at 0 (or FirstThunk at 16), Name at 12.
  // Delay: Attributes at 0, Name at 4, DelayImportNameTable at 16.
  for (const Table tab : {Table{llvm::COFF::IMPORT_TABLE, 20, 12, 0, 16, false},
                          Table{llvm::COFF::DELAY_IMPORT_DESCRIPTOR, 32, 4, 16, 16, true}}) {
    const obj::data_directory* dd = o.getDataDirectory(tab.index);
    if (!dd || dd->RelativeVirtualAddress == 0 || dd->Size < tab.entry_size) continue;
    const uint8_t* dir = pe_bytes(o, dd->RelativeVirtualAddress, dd->Size, name,
                                  tab.delay ? "the delay-load import directory" : "the import directory");
    for (uint32_t off = 0; off + tab.entry_size <= dd->Size; off += tab.entry_size) {
      const uint8_t* e = dir + off;
      const uint32_t dll_rva = llvm::support::endian::read32le(e + tab.name_at);
      if (dll_rva == 0) break;  // the null entry ends the table
      uint32_t names = llvm::support::endian::read32le(e + tab.names_at);
      if (names == 0) names = llvm::support::endian::read32le(e + tab.fallback_at);
      // Old delay-load entries (Attributes bit 0 clear) hold VAs, not RVAs.
      if (tab.delay && !(llvm::support::endian::read32le(e) & 1)) {
        const uint64_t base = o.getImageBase();
        if (names < base) throw InputError(name, "a delay-load entry's name table lies outside the image");
        names = static_cast<uint32_t>(names - base);
      }
      const std::string dll = pe_string(o, dll_rva, name, "an imported DLL's name").str();
      img.needed.push_back(dll);
      read_pe_thunks(o, names, dll, tab.delay, img, name);
    }
  }
}

ObjectImage read_pe(const obj::COFFObjectFile& o, const std::string& name) {
  if (!o.getDOSHeader()) throw InputError(name, "a COFF object file, not a PE library");
  ObjectImage img;
  img.format = BinaryFormat::Pe;
  img.machine = coff_machine(o.getMachine());
  read_pe_imports(o, img, name);
  read_pe_exports(o, img, name);
  return img;
}

}  // namespace

BinaryFormat sniff_binary(std::span<const std::byte> bytes) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "\x7f" "ELF", 4) == 0) return BinaryFormat::Elf;
  switch (llvm::identify_magic(as_ref(bytes))) {
    case llvm::file_magic::macho_universal_binary: return BinaryFormat::MachOUniversal;
    case llvm::file_magic::macho_dynamically_linked_shared_lib:
    case llvm::file_magic::macho_dynamically_linked_shared_lib_stub:
    case llvm::file_magic::macho_bundle:
    case llvm::file_magic::macho_executable:
    case llvm::file_magic::macho_object: return BinaryFormat::MachO;
    case llvm::file_magic::pecoff_executable: return BinaryFormat::Pe;
    default: return BinaryFormat::Unknown;
  }
}

const char* to_string(BinaryFormat f) {
  switch (f) {
    case BinaryFormat::Elf: return "ELF";
    case BinaryFormat::MachO: return "Mach-O";
    case BinaryFormat::MachOUniversal: return "Mach-O universal";
    case BinaryFormat::Pe: return "PE/COFF";
    case BinaryFormat::Unknown: return "unknown";
  }
  return "unknown";
}

std::vector<ObjectImage> read_object_image(std::span<const std::byte> bytes, const std::string& name) {
  const llvm::MemoryBufferRef ref(as_ref(bytes), name);
  std::vector<ObjectImage> out;
  switch (sniff_binary(bytes)) {
    case BinaryFormat::MachO: {
      auto o = take(obj::ObjectFile::createMachOObjectFile(ref), name, "malformed Mach-O file");
      out.push_back(read_macho(*o, name));
      break;
    }
    case BinaryFormat::MachOUniversal: {
      auto fat = take(obj::MachOUniversalBinary::create(ref), name, "malformed universal binary");
      for (const auto& slice : fat->objects()) {
        const std::string label = name + " (" + slice.getArchFlagName() + ")";
        auto o = take(slice.getAsObjectFile(), label, "malformed Mach-O slice");
        out.push_back(read_macho(*o, label));
      }
      if (out.empty()) throw InputError(name, "a universal binary with no architectures");
      break;
    }
    case BinaryFormat::Pe: {
      auto o = take(obj::COFFObjectFile::create(ref), name, "malformed PE file");
      out.push_back(read_pe(*o, name));
      break;
    }
    default: throw InputError(name, "not a Mach-O or PE/COFF library");
  }
  return out;
}

}  // namespace torchabi::inputs
