// Test helper: builds small, valid ELF64 shared-object images in memory
// (ELF header, .dynstr, .dynsym, .gnu.version, .dynamic, .shstrtab, optional
// .gnu.version_d / .gnu.version_r and the section header table), so tests can describe the symbols they need and then
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

// Versions a library requires of one DT_NEEDED library (.gnu.version_r).
struct ElfVersionNeedSpec {
  std::string file;
  std::vector<std::string> versions;
  bool weak = false;
};

struct ElfImageSpec {
  uint16_t machine = EM_X86_64;
  uint16_t type = ET_DYN;
  std::vector<ElfSymbolSpec> symbols;
  std::vector<std::string> needed;
  std::string soname;
  bool with_versym = true;
  // .gnu.version_d: index 1 is the base version (named after the soname),
  // these get indices 2, 3, ...; .gnu.version_r entries take the indices
  // after them, in order. Empty: no such section.
  std::vector<std::string> version_defs;
  std::vector<ElfVersionNeedSpec> version_needs;
};

struct ElfImage {
  std::vector<std::byte> bytes;
  size_t dynsym_offset = 0;  // first Elf64_Sym (the null symbol)
  size_t shdr_offset = 0;    // section header table
  size_t verdef_offset = 0;  // first Elf64_Verdef, when version_defs were given
  size_t verneed_offset = 0; // first Elf64_Verneed, when version_needs were given
  enum Section { kNull, kDynstr, kDynsym, kVersym, kDynamic, kShstrtab, kVerdef, kVerneed, kCount };

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

  // Version tables, each entry followed by its one (verdef) or all (verneed) aux entries.
  std::string verdef, verneed;
  auto put = [](std::string& to, const auto& v) { to.append(reinterpret_cast<const char*>(&v), sizeof v); };
  size_t verdef_count = 0, verneed_count = 0;
  uint16_t next_index = 2;
  if (!spec.version_defs.empty()) {
    std::vector<std::string> names = {spec.soname.empty() ? "lib.so" : spec.soname};
    names.insert(names.end(), spec.version_defs.begin(), spec.version_defs.end());
    for (size_t i = 0; i < names.size(); ++i) {
      Elf64_Verdef vd{};
      vd.vd_version = VER_DEF_CURRENT;
      vd.vd_flags = i == 0 ? VER_FLG_BASE : 0;
      vd.vd_ndx = uint16_t(i + 1);
      vd.vd_cnt = 1;
      vd.vd_aux = sizeof(Elf64_Verdef);
      vd.vd_next = i + 1 < names.size() ? sizeof(Elf64_Verdef) + sizeof(Elf64_Verdaux) : 0;
      Elf64_Verdaux aux{add_str(names[i]), 0};
      put(verdef, vd);
      put(verdef, aux);
    }
    verdef_count = names.size();
    next_index = uint16_t(names.size() + 1);
  }
  for (size_t n = 0; n < spec.version_needs.size(); ++n) {
    const auto& need = spec.version_needs[n];
    Elf64_Verneed vn{};
    vn.vn_version = VER_NEED_CURRENT;
    vn.vn_cnt = uint16_t(need.versions.size());
    vn.vn_file = add_str(need.file);
    vn.vn_aux = sizeof(Elf64_Verneed);
    vn.vn_next = n + 1 < spec.version_needs.size()
                     ? uint32_t(sizeof(Elf64_Verneed) + need.versions.size() * sizeof(Elf64_Vernaux))
                     : 0;
    put(verneed, vn);
    for (size_t k = 0; k < need.versions.size(); ++k) {
      Elf64_Vernaux aux{};
      aux.vna_flags = need.weak ? VER_FLG_WEAK : 0;
      aux.vna_other = next_index++;
      aux.vna_name = add_str(need.versions[k]);
      aux.vna_next = k + 1 < need.versions.size() ? sizeof(Elf64_Vernaux) : 0;
      put(verneed, aux);
    }
    ++verneed_count;
  }
  static const char kShstr[] = "\0.dynstr\0.dynsym\0.gnu.version\0.dynamic\0.shstrtab\0.gnu.version_d\0.gnu.version_r\0";
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
  img.verdef_offset = append(verdef.data(), verdef.size());
  align(8);
  img.verneed_offset = append(verneed.data(), verneed.size());
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
  // Absent version tables stay as empty PROGBITS sections nobody reads.
  set(ElfImage::kVerdef, 49, verdef.empty() ? SHT_PROGBITS : SHT_GNU_verdef, img.verdef_offset, verdef.size(),
      verdef.empty() ? 0 : ElfImage::kDynstr, 0, 8);
  img.shdr(ElfImage::kVerdef).sh_info = uint32_t(verdef_count);
  set(ElfImage::kVerneed, 64, verneed.empty() ? SHT_PROGBITS : SHT_GNU_verneed, img.verneed_offset, verneed.size(),
      verneed.empty() ? 0 : ElfImage::kDynstr, 0, 8);
  img.shdr(ElfImage::kVerneed).sh_info = uint32_t(verneed_count);
  return img;
}

}  // namespace torchabi::test_support
