#include "inputs/object_image.h"

#include <cstring>

#include <llvm/BinaryFormat/COFF.h>
#include <llvm/BinaryFormat/MachO.h>
#include <llvm/BinaryFormat/Magic.h>
#include <llvm/Object/COFF.h>
#include <llvm/Object/MachO.h>
#include <llvm/Object/MachOUniversal.h>
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
    llvm::StringRef n = take(sym.getName(), name, "unreadable symbol name");
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

template <typename Dir>
void read_pe_imports(const Dir& dir, bool delay, ObjectImage& img, const std::string& name) {
  llvm::StringRef dll;
  check(dir.getName(dll), name, "unreadable import directory");
  img.needed.push_back(dll.str());
  for (const obj::ImportedSymbolRef& s : dir.imported_symbols()) {
    bool by_ordinal = false;
    check(s.isOrdinal(by_ordinal), name, "unreadable import");
    if (by_ordinal) continue;  // no name to classify
    llvm::StringRef sym;
    check(s.getSymbolName(sym), name, "unreadable import name");
    img.imports.push_back({sym.str(), dll.str(), delay, false});
  }
}

ObjectImage read_pe(const obj::COFFObjectFile& o, const std::string& name) {
  if (!o.getDOSHeader()) throw InputError(name, "a COFF object file, not a PE library");
  ObjectImage img;
  img.format = BinaryFormat::Pe;
  img.machine = coff_machine(o.getMachine());
  for (const obj::ImportDirectoryEntryRef& dir : o.import_directories()) read_pe_imports(dir, false, img, name);
  for (const obj::DelayImportDirectoryEntryRef& dir : o.delay_import_directories()) read_pe_imports(dir, true, img, name);
  llvm::StringRef dll;
  for (const obj::ExportDirectoryEntryRef& e : o.export_directories()) {
    if (img.install_name.empty() && !e.getDllName(dll)) img.install_name = dll.str();
    llvm::StringRef sym;
    check(e.getSymbolName(sym), name, "unreadable export");
    if (!sym.empty()) img.exports.push_back(sym.str());
  }
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
