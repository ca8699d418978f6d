#include "inputs/elf_view.h"

#include <cstring>
#include <elf.h>
#include <gelf.h>
#include <libelf.h>

#include "common/input_error.h"

namespace torchabi::inputs {

namespace {

bool libelf_ready() {
  static const bool ok = elf_version(EV_CURRENT) != EV_NONE;
  return ok;
}

// The ELF header fields checked before libelf sees the bytes, so that the
// common mistakes (a 32-bit library, a truncated download, a foreign
// architecture) get a message that says so instead of "invalid ELF file".
struct RawHeader {
  bool big_endian = false;
  const unsigned char* p = nullptr;

  uint16_t u16(size_t off) const {
    return big_endian ? uint16_t(p[off] << 8 | p[off + 1]) : uint16_t(p[off] | p[off + 1] << 8);
  }
  uint64_t u64(size_t off) const {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(p[off + (big_endian ? 7 - i : i)]) << (8 * i);
    return v;
  }
};

const char* machine_label(uint16_t m) {
  switch (m) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_386: return "i386";
    case EM_ARM: return "ARM";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "s390";
    case EM_RISCV: return "RISC-V";
    case EM_MIPS: return "MIPS";
    case EM_SPARCV9: return "SPARC V9";
    default: return nullptr;
  }
}

bool looks_like_linker_script(std::span<const std::byte> bytes) {
  std::string_view head(reinterpret_cast<const char*>(bytes.data()), std::min<size_t>(bytes.size(), 512));
  return head.find("GNU ld script") != std::string_view::npos || head.find("GROUP (") != std::string_view::npos ||
         head.find("INPUT (") != std::string_view::npos;
}

std::string bytes_str(uint64_t n) { return std::to_string(n) + " bytes"; }

// Where a table of a damaged file ends: offset + size may not fit in 64 bits.
std::string end_str(uint64_t offset, uint64_t size) {
  uint64_t end = 0;
  if (__builtin_add_overflow(offset, size, &end)) return "beyond any 64-bit offset";
  return "at byte " + std::to_string(end);
}

}  // namespace

bool ElfView::supported_machine(uint16_t machine) { return machine == EM_X86_64 || machine == EM_AARCH64; }

const char* ElfView::machine_name() const {
  const char* label = machine_label(machine_);
  return label ? label : "unknown";
}

void ElfView::fail(const std::string& what) const { throw InputError(name_, what); }

ElfView::ElfView(std::span<const std::byte> bytes, std::string name) : name_(std::move(name)), bytes_(bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < SELFMAG || std::memcmp(p, ELFMAG, SELFMAG) != 0) {
    if (bytes.empty()) fail("not an ELF file (empty)");
    fail(looks_like_linker_script(bytes) ? "not an ELF file (a GNU ld linker script)" : "not an ELF file");
  }
  if (bytes.size() < EI_NIDENT) fail("truncated ELF: the file ends inside the ELF identification");
  if (p[EI_CLASS] == ELFCLASS32) fail("32-bit ELF (ELFCLASS32); PyTorch extensions are 64-bit");
  if (p[EI_CLASS] != ELFCLASS64) fail("corrupt ELF: unknown class " + std::to_string(p[EI_CLASS]));
  if (p[EI_DATA] != ELFDATA2LSB && p[EI_DATA] != ELFDATA2MSB)
    fail("corrupt ELF: unknown byte order " + std::to_string(p[EI_DATA]));
  if (bytes.size() < sizeof(Elf64_Ehdr))
    fail("truncated ELF: " + bytes_str(bytes.size()) + ", shorter than the 64-byte ELF header");

  RawHeader h{p[EI_DATA] == ELFDATA2MSB, p};
  const uint16_t type = h.u16(offsetof(Elf64_Ehdr, e_type));
  machine_ = h.u16(offsetof(Elf64_Ehdr, e_machine));
  if (type == ET_REL) fail("a relocatable object file (.o), not a shared library");
  if (type == ET_CORE) fail("a core dump, not a shared library");
  if (type != ET_DYN && type != ET_EXEC) fail("corrupt ELF: unknown file type " + std::to_string(type));
  if (!supported_machine(machine_)) {
    const char* label = machine_label(machine_);
    fail(std::string("foreign architecture ") + (label ? label : "unknown") + " (e_machine " +
         std::to_string(machine_) + "); torchabi audits x86-64 and AArch64 libraries");
  }
  const uint64_t shoff = h.u64(offsetof(Elf64_Ehdr, e_shoff));
  const uint16_t shentsize = h.u16(offsetof(Elf64_Ehdr, e_shentsize));
  const uint16_t shnum = h.u16(offsetof(Elf64_Ehdr, e_shnum));
  if (shoff == 0) fail("no section headers (stripped with sstrip?); cannot locate the dynamic symbol table");
  if (shentsize != sizeof(Elf64_Shdr)) fail("corrupt ELF: section header size " + std::to_string(shentsize));
  // shnum == 0 means "extended numbering": the count lives in section 0, which must fit anyway.
  const uint64_t count = shnum ? shnum : 1;
  if (shoff > bytes.size() || (bytes.size() - shoff) / sizeof(Elf64_Shdr) < count)
    fail("truncated ELF: section headers end " + end_str(shoff, count * sizeof(Elf64_Shdr)) + " but the file has " +
         bytes_str(bytes.size()));

  if (!libelf_ready()) fail(std::string("libelf: ") + elf_errmsg(-1));
  // ELF_C_READ_MMAP semantics: libelf reads in place and never writes to `bytes`.
  elf_ = elf_memory(const_cast<char*>(reinterpret_cast<const char*>(bytes.data())), bytes.size());
  if (!elf_) fail(std::string("corrupt ELF: ") + elf_errmsg(-1));
  try {
    // libelf does not call an image ELF when, e.g., its ident version is wrong.
    if (elf_kind(elf_) != ELF_K_ELF) fail("corrupt ELF: libelf does not recognise the header");
    read_sections();
  } catch (...) {
    elf_end(elf_);
    elf_ = nullptr;
    throw;
  }
}

ElfView::~ElfView() {
  if (elf_) elf_end(elf_);
}

std::string_view ElfView::string_at(const char* table, size_t size, uint64_t offset, const char* what) const {
  if (offset >= size) fail(std::string("corrupt ELF: ") + what + " points outside its string table");
  const void* nul = std::memchr(table + offset, '\0', size - offset);
  if (!nul) fail(std::string("corrupt ELF: ") + what + " is not NUL-terminated");
  return {table + offset, size_t(static_cast<const char*>(nul) - (table + offset))};
}

void ElfView::read_sections() {
  // libelf may hand out pointers into the image at any alignment (a damaged
  // e_shoff or sh_offset); every header and entry is copied out with memcpy.
  auto header_of = [&](Elf_Scn* scn) {
    const void* p = elf64_getshdr(scn);  // untyped: it may be misaligned
    if (!p) fail(std::string("corrupt ELF: ") + elf_errmsg(-1));
    Elf64_Shdr sh;
    std::memcpy(&sh, p, sizeof sh);
    return sh;
  };
  struct Table {
    Elf_Scn* scn = nullptr;
    Elf64_Shdr shdr{};
  } dynsym, dynamic, versym, verdef, verneed;

  auto section_data = [&](Elf_Scn* scn, const Elf64_Shdr* sh, const char* what) -> Elf_Data* {
    if (sh->sh_type != SHT_NOBITS && (sh->sh_offset > bytes_.size() || bytes_.size() - sh->sh_offset < sh->sh_size))
      fail(std::string("truncated ELF: ") + what + " ends " + end_str(sh->sh_offset, sh->sh_size) +
           " but the file has " + bytes_str(bytes_.size()));
    Elf_Data* d = elf_getdata(scn, nullptr);
    if (!d || (sh->sh_size && !d->d_buf)) fail(std::string("corrupt ELF: cannot read ") + what + ": " + elf_errmsg(-1));
    return d;
  };
  auto linked_strtab = [&](const Elf64_Shdr* sh, const char* what, const char** table, size_t* size) {
    Elf_Scn* s = elf_getscn(elf_, sh->sh_link);
    if (!s || sh->sh_link == 0) fail(std::string("corrupt ELF: ") + what + " has no string table");
    const Elf64_Shdr ssh = header_of(s);
    if (ssh.sh_type != SHT_STRTAB) fail(std::string("corrupt ELF: ") + what + " has no string table");
    Elf_Data* d = section_data(s, &ssh, "the dynamic string table");
    *table = static_cast<const char*>(d->d_buf);
    *size = d->d_size;
  };

  for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn; scn = elf_nextscn(elf_, scn)) {
    const Elf64_Shdr sh = header_of(scn);
    Table* t = sh.sh_type == SHT_DYNSYM ? &dynsym : sh.sh_type == SHT_DYNAMIC ? &dynamic
             : sh.sh_type == SHT_GNU_versym ? &versym : sh.sh_type == SHT_GNU_verdef ? &verdef
             : sh.sh_type == SHT_GNU_verneed ? &verneed : nullptr;
    if (!t) continue;
    if (t->scn) fail("corrupt ELF: more than one section of type " + std::to_string(sh.sh_type));
    *t = {scn, sh};
  }
  if (!dynsym.scn) fail("no dynamic symbol table (.dynsym): not a dynamically linked library");

  if (dynsym.shdr.sh_entsize != sizeof(Elf64_Sym))
    fail("corrupt ELF: .dynsym entry size " + std::to_string(dynsym.shdr.sh_entsize));
  Elf_Data* sd = section_data(dynsym.scn, &dynsym.shdr, ".dynsym");
  if (sd->d_size % sizeof(Elf64_Sym) != 0) fail("corrupt ELF: .dynsym size is not a whole number of entries");
  syms_ = sd->d_buf;
  sym_count_ = sd->d_size / sizeof(Elf64_Sym);
  linked_strtab(&dynsym.shdr, ".dynsym", &dynstr_, &dynstr_size_);

  if (versym.scn) {
    Elf_Data* vd = section_data(versym.scn, &versym.shdr, ".gnu.version");
    if (vd->d_size != sym_count_ * sizeof(uint16_t))
      fail("corrupt ELF: .gnu.version has " + std::to_string(vd->d_size / 2) + " entries for " +
           std::to_string(sym_count_) + " symbols");
    versym_ = static_cast<const std::byte*>(vd->d_buf);
  }
  if (dynamic.scn) {
    Elf_Data* dd = section_data(dynamic.scn, &dynamic.shdr, ".dynamic");
    const char* strtab = nullptr;
    size_t strsize = 0;
    linked_strtab(&dynamic.shdr, ".dynamic", &strtab, &strsize);
    read_dynamic(dd->d_buf, dd->d_size, strtab, strsize);
  }
  // Version tables: sh_info holds the entry count, sh_link the string table.
  auto read_versions = [&](Table& t, const char* what, auto reader) {
    if (!t.scn) return;
    Elf_Data* d = section_data(t.scn, &t.shdr, what);
    const char* strtab = nullptr;
    size_t strsize = 0;
    linked_strtab(&t.shdr, what, &strtab, &strsize);
    (this->*reader)(static_cast<const std::byte*>(d->d_buf), d->d_size, t.shdr.sh_info, strtab, strsize);
  };
  read_versions(verdef, ".gnu.version_d", &ElfView::read_verdef);
  read_versions(verneed, ".gnu.version_r", &ElfView::read_verneed);
}

namespace {

// Reads a T at `offset` of a table of `size` bytes, or returns false when it
// does not fit (offset + sizeof(T) may not fit in 64 bits on a damaged file).
template <class T>
bool read_entry(const std::byte* data, size_t size, uint64_t offset, T* out) {
  if (offset > size || size - offset < sizeof(T)) return false;
  std::memcpy(out, data + offset, sizeof(T));
  return true;
}

// The offset of the next entry: `base + delta`, or false on overflow.
bool advance(uint64_t base, uint64_t delta, uint64_t* out) { return !__builtin_add_overflow(base, delta, out); }

}  // namespace

void ElfView::set_version(uint16_t index, const SymbolVersion& v) {
  index &= 0x7fff;
  if (index <= VER_NDX_GLOBAL) return;  // 0 and 1 are reserved: local, global
  if (versions_.size() <= index) versions_.resize(size_t(index) + 1);
  versions_[index] = v;
}

// Every entry advances by a non-zero vd_next, so the walk ends within `size`
// bytes whatever sh_info claims.
void ElfView::read_verdef(const std::byte* data, size_t size, size_t count, const char* strtab, size_t strsize) {
  has_verdef_ = true;
  uint64_t off = 0;
  for (size_t n = 0; n < count; ++n) {
    Elf64_Verdef vd;
    if (!read_entry(data, size, off, &vd)) fail("corrupt ELF: .gnu.version_d entry " + std::to_string(n) + " lies outside the section");
    if (vd.vd_version != VER_DEF_CURRENT)
      fail("corrupt ELF: .gnu.version_d entry " + std::to_string(n) + " has version " + std::to_string(vd.vd_version));
    SymbolVersion v;
    v.base = (vd.vd_flags & VER_FLG_BASE) != 0;
    v.weak = (vd.vd_flags & VER_FLG_WEAK) != 0;
    if (vd.vd_cnt > 0) {
      Elf64_Verdaux aux;
      uint64_t aux_off = 0;
      if (!advance(off, vd.vd_aux, &aux_off) || !read_entry(data, size, aux_off, &aux))
        fail("corrupt ELF: .gnu.version_d entry " + std::to_string(n) + " names a version outside the section");
      v.name = string_at(strtab, strsize, aux.vda_name, "a version definition");
    }
    set_version(vd.vd_ndx, v);
    if (!v.base && !v.name.empty()) version_defs_.push_back(v.name);
    if (vd.vd_next == 0) break;
    if (!advance(off, vd.vd_next, &off)) fail("corrupt ELF: .gnu.version_d entry " + std::to_string(n) + " links past the section");
  }
}

void ElfView::read_verneed(const std::byte* data, size_t size, size_t count, const char* strtab, size_t strsize) {
  uint64_t off = 0;
  for (size_t n = 0; n < count; ++n) {
    Elf64_Verneed vn;
    if (!read_entry(data, size, off, &vn)) fail("corrupt ELF: .gnu.version_r entry " + std::to_string(n) + " lies outside the section");
    if (vn.vn_version != VER_NEED_CURRENT)
      fail("corrupt ELF: .gnu.version_r entry " + std::to_string(n) + " has version " + std::to_string(vn.vn_version));
    const std::string_view file = string_at(strtab, strsize, vn.vn_file, "a version requirement's file");
    uint64_t aux_off = 0;
    if (!advance(off, vn.vn_aux, &aux_off)) fail("corrupt ELF: .gnu.version_r entry " + std::to_string(n) + " links past the section");
    for (size_t k = 0; k < vn.vn_cnt; ++k) {
      Elf64_Vernaux aux;
      if (!read_entry(data, size, aux_off, &aux))
        fail("corrupt ELF: .gnu.version_r entry " + std::to_string(n) + " names a version outside the section");
      SymbolVersion v;
      v.name = string_at(strtab, strsize, aux.vna_name, "a version requirement");
      v.file = file;
      v.weak = (aux.vna_flags & VER_FLG_WEAK) != 0;
      set_version(aux.vna_other, v);
      version_needs_.push_back({file, v.name, uint16_t(aux.vna_other & 0x7fff), v.weak});
      if (aux.vna_next == 0) break;
      if (!advance(aux_off, aux.vna_next, &aux_off))
        fail("corrupt ELF: .gnu.version_r entry " + std::to_string(n) + " links past the section");
    }
    if (vn.vn_next == 0) break;
    if (!advance(off, vn.vn_next, &off)) fail("corrupt ELF: .gnu.version_r entry " + std::to_string(n) + " links past the section");
  }
}

SymbolVersion ElfView::version(uint16_t index) const {
  index &= 0x7fff;
  return index < versions_.size() ? versions_[index] : SymbolVersion{};
}

void ElfView::read_dynamic(const void* data, size_t size, const char* strtab, size_t strsize) {
  for (size_t i = 0; i < size / sizeof(Elf64_Dyn); ++i) {
    Elf64_Dyn dyn;
    std::memcpy(&dyn, static_cast<const std::byte*>(data) + i * sizeof dyn, sizeof dyn);
    if (dyn.d_tag == DT_NULL) break;
    if (dyn.d_tag == DT_NEEDED) needed_.push_back(string_at(strtab, strsize, dyn.d_un.d_val, "a DT_NEEDED entry"));
    else if (dyn.d_tag == DT_SONAME) soname_ = string_at(strtab, strsize, dyn.d_un.d_val, "DT_SONAME");
    else if (dyn.d_tag == DT_RUNPATH) runpath_ = string_at(strtab, strsize, dyn.d_un.d_val, "DT_RUNPATH");
    else if (dyn.d_tag == DT_RPATH) rpath_ = string_at(strtab, strsize, dyn.d_un.d_val, "DT_RPATH");
  }
}

DynSymbol ElfView::symbol(size_t index, bool with_name) const {
  if (index >= sym_count_) fail("symbol index " + std::to_string(index) + " out of range");
  Elf64_Sym s;
  std::memcpy(&s, static_cast<const std::byte*>(syms_) + index * sizeof s, sizeof s);
  DynSymbol d;
  if (with_name) d.name = string_at(dynstr_, dynstr_size_, s.st_name, "a symbol name");
  d.bind = ELF64_ST_BIND(s.st_info);
  d.type = ELF64_ST_TYPE(s.st_info);
  d.visibility = ELF64_ST_VISIBILITY(s.st_other);
  d.defined = s.st_shndx != SHN_UNDEF;
  if (versym_) {
    uint16_t v;
    std::memcpy(&v, versym_ + index * sizeof v, sizeof v);
    d.hidden_version = (v & 0x8000) != 0 || (v & 0x7fff) == VER_NDX_LOCAL;
    d.version = v & 0x7fff;
  }
  return d;
}

}  // namespace torchabi::inputs
