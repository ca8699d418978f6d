// Test helper: builds small, valid ELF64 shared-object images in memory
// (ELF header, .dynstr, .dynsym, .gnu.version, .dynamic, .shstrtab and the
// section header table), so tests can describe the symbols they need and then
// damage exactly the field they want to test. Our own code, for tests only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <elf.h>
#include <string>
#include <vector>

namespace torchabi::test_support {

struct ElfSymbolSpec {
  std::string name;
  bool defined = false;
  unsigned char bind = STB_GLOBAL;
  unsigned char type = STT_FUNC;
  unsigned char visibility = STV_DEFAULT;
  uint16_t versym = 1;  // VER_NDX_GLOBAL
};

struct ElfImageSpec {
  uint16_t machine = EM_X86_64;
  uint16_t type = ET_DYN;
  std::vector<ElfSymbolSpec> symbols;
  std::vector<std::string> needed;
  std::string soname;
  bool with_versym = true;
};

struct ElfImage {
  std::vector<std::byte> bytes;
  size_t dynsym_offset = 0;  // first Elf64_Sym (the null symbol)
  size_t shdr_offset = 0;    // section header table
  enum Section { kNull, kDynstr, kDynsym, kVersym, kDynamic, kShstrtab, kCount };

  Elf64_Ehdr& ehdr() { return *reinterpret_cast<Elf64_Ehdr*>(bytes.data()); }
  Elf64_Shdr& shdr(Section s) { return reinterpret_cast<Elf64_Shdr*>(bytes.data() + shdr_offset)[s]; }
  Elf64_Sym& sym(size_t i) { return reinterpret_cast<Elf64_Sym*>(bytes.data() + dynsym_offset)[i]; }
};

inline ElfImage build_elf(const ElfImageSpec& spec) {
  std::string dynstr(1, '\0');
  auto add_str = [&](const std::string& s) {
    uint32_t off = uint32_t(dynstr.size());
    dynstr += s;
    dynstr += '\0';
    return off;
  };
  std::vector<Elf64_Sym> syms(1, Elf64_Sym{});
  std::vector<uint16_t> versyms(1, 0);
  for (const auto& s : spec.symbols) {
    Elf64_Sym e{};
    e.st_name = add_str(s.name);
    e.st_info = ELF64_ST_INFO(s.bind, s.type);
    e.st_other = s.visibility;
    e.st_shndx = s.defined ? 7 : SHN_UNDEF;  // any non-zero section index means "defined"
    e.st_value = s.defined ? 0x1000 : 0;
    syms.push_back(e);
    versyms.push_back(s.versym);
  }
  std::vector<Elf64_Dyn> dyn;
  for (const auto& n : spec.needed) dyn.push_back({DT_NEEDED, {add_str(n)}});
  if (!spec.soname.empty()) dyn.push_back({DT_SONAME, {add_str(spec.soname)}});
  dyn.push_back({DT_NULL, {0}});
  static const char kShstr[] = "\0.dynstr\0.dynsym\0.gnu.version\0.dynamic\0.shstrtab\0";
  const std::string shstrtab(kShstr, sizeof kShstr - 1);

  ElfImage img;
  auto& b = img.bytes;
  auto align = [&](size_t a) { b.resize((b.size() + a - 1) / a * a); };
  auto append = [&](const void* p, size_t n) {
    size_t off = b.size();
    b.resize(off + n);
    if (n) std::memcpy(b.data() + off, p, n);
    return off;
  };
  b.resize(sizeof(Elf64_Ehdr));
  const size_t dynstr_off = append(dynstr.data(), dynstr.size());
  align(8);
  img.dynsym_offset = append(syms.data(), syms.size() * sizeof(Elf64_Sym));
  align(2);
  const size_t versym_off = append(versyms.data(), versyms.size() * sizeof(uint16_t));
  align(8);
  const size_t dynamic_off = append(dyn.data(), dyn.size() * sizeof(Elf64_Dyn));
  const size_t shstr_off = append(shstrtab.data(), shstrtab.size());
  align(8);
  img.shdr_offset = b.size();
  b.resize(b.size() + ElfImage::kCount * sizeof(Elf64_Shdr));

  Elf64_Ehdr& eh = img.ehdr();
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = spec.type;
  eh.e_machine = spec.machine;
  eh.e_version = EV_CURRENT;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shoff = img.shdr_offset;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = ElfImage::kCount;
  eh.e_shstrndx = ElfImage::kShstrtab;

  auto set = [&](ElfImage::Section s, uint32_t name, uint32_t type, size_t off, size_t size, uint32_t link,
                 size_t entsize, size_t align_to) {
    Elf64_Shdr& sh = img.shdr(s);
    sh.sh_name = name;
    sh.sh_type = type;
    sh.sh_offset = off;
    sh.sh_size = size;
    sh.sh_link = link;
    sh.sh_entsize = entsize;
    sh.sh_addralign = align_to;
    sh.sh_flags = SHF_ALLOC;
    sh.sh_addr = off;
  };
  set(ElfImage::kDynstr, 1, SHT_STRTAB, dynstr_off, dynstr.size(), 0, 0, 1);
  set(ElfImage::kDynsym, 9, SHT_DYNSYM, img.dynsym_offset, syms.size() * sizeof(Elf64_Sym), ElfImage::kDynstr,
      sizeof(Elf64_Sym), 8);
  if (spec.with_versym)
    set(ElfImage::kVersym, 17, SHT_GNU_versym, versym_off, versyms.size() * 2, ElfImage::kDynsym, 2, 2);
  else
    set(ElfImage::kVersym, 17, SHT_PROGBITS, versym_off, versyms.size() * 2, 0, 0, 2);
  set(ElfImage::kDynamic, 30, SHT_DYNAMIC, dynamic_off, dyn.size() * sizeof(Elf64_Dyn), ElfImage::kDynstr,
      sizeof(Elf64_Dyn), 8);
  set(ElfImage::kShstrtab, 39, SHT_STRTAB, shstr_off, shstrtab.size(), 0, 0, 1);
  img.shdr(ElfImage::kShstrtab).sh_flags = 0;
  return img;
}

}  // namespace torchabi::test_support
