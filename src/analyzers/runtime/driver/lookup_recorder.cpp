// Why a GOT redirection: the lookups worth reporting are made by the
// extension's own code through its PLT/GOT entry for dlsym (the stable
// headers inline the call into the extension). Rewriting that one entry sees
// exactly those calls; interposing dlsym process-wide (LD_PRELOAD, a global
// definition) would also catch the runtime's, the driver's and libc's own.
// The entry is found as the dynamic loader found it: the extension's dynamic
// relocations (R_*_JUMP_SLOT, R_*_GLOB_DAT) naming "dlsym". With full RELRO
// (-z now -z relro) the GOT is read-only after loading, so its page is made
// writable for the write and read-only again afterwards.
#include "analyzers/runtime/driver/lookup_recorder.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <set>
#include <utility>

// 64-bit only, like every library torchabi reads (inputs/elf_view.h).
static_assert(sizeof(void*) == 8);

namespace torchabi::runtime_driver {
namespace {

struct Log {
  std::mutex mu;
  std::set<std::string> seen;
  std::vector<NameLookup> pending;
};

Log& log() {
  static Log l;
  return l;
}

// Called by the extension instead of dlsym. A dlsym(RTLD_NEXT, ...) would
// search from torchabi instead of from the extension; the stable headers only
// ever use RTLD_DEFAULT, whose answer does not depend on the caller.
extern "C" void* torchabi_recording_dlsym(void* handle, const char* name) {
  void* found = dlsym(handle, name);
  if (name) {
    Log& l = log();
    std::lock_guard lock(l.mu);
    if (l.seen.insert(name).second) l.pending.push_back({name, found != nullptr});
  }
  return found;
}

struct Segments {
  ElfW(Addr) base = 0;
  const char* name = nullptr;
  const ElfW(Dyn)* dynamic = nullptr;
  ElfW(Addr) relro_begin = 0, relro_end = 0;
  bool matched = false;
};

int find_object(dl_phdr_info* info, size_t, void* data) {
  auto* s = static_cast<Segments*>(data);
  if (info->dlpi_addr != s->base || !info->dlpi_name || std::strcmp(info->dlpi_name, s->name) != 0) return 0;
  s->matched = true;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& p = info->dlpi_phdr[i];
    if (p.p_type == PT_DYNAMIC) s->dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + p.p_vaddr);
    if (p.p_type == PT_GNU_RELRO) {
      s->relro_begin = info->dlpi_addr + p.p_vaddr;
      s->relro_end = s->relro_begin + p.p_memsz;
    }
  }
  return 1;
}

bool is_symbol_slot(uint32_t type) {
#if defined(__x86_64__)
  return type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
  return type == R_AARCH64_JUMP_SLOT || type == R_AARCH64_GLOB_DAT;
#else
  return false;
#endif
}

bool write_slot(void** slot, void* value, const Segments& s) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<uintptr_t>(slot);
  void* start = reinterpret_cast<void*>(at & ~(page - 1));
  const bool relro = at >= s.relro_begin && at < s.relro_end;
  if (relro && mprotect(start, page, PROT_READ | PROT_WRITE) != 0) return false;
  *slot = value;
  if (relro) mprotect(start, page, PROT_READ);
  return true;
}

}  // namespace

std::string record_name_lookups(void* extension_handle) {
  link_map* lm = nullptr;
  if (dlinfo(extension_handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm) return "the extension's link map is not available";
  Segments s;
  s.base = lm->l_addr;
  s.name = lm->l_name;
  dl_iterate_phdr(find_object, &s);
  if (!s.matched || !s.dynamic) return "the extension's dynamic section was not found";

  // glibc relocates some d_ptr entries in place, others not: an address below
  // the load base is still an offset.
  auto at = [&](ElfW(Addr) v) { return v < s.base ? v + s.base : v; };
  const ElfW(Sym)* symtab = nullptr;
  const char* strtab = nullptr;
  const ElfW(Rela)* tables[2] = {nullptr, nullptr};
  size_t sizes[2] = {0, 0};
  for (const ElfW(Dyn)* d = s.dynamic; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: symtab = reinterpret_cast<const ElfW(Sym)*>(at(d->d_un.d_ptr)); break;
      case DT_STRTAB: strtab = reinterpret_cast<const char*>(at(d->d_un.d_ptr)); break;
      case DT_JMPREL: tables[0] = reinterpret_cast<const ElfW(Rela)*>(at(d->d_un.d_ptr)); break;
      case DT_PLTRELSZ: sizes[0] = d->d_un.d_val; break;
      case DT_RELA: tables[1] = reinterpret_cast<const ElfW(Rela)*>(at(d->d_un.d_ptr)); break;
      case DT_RELASZ: sizes[1] = d->d_un.d_val; break;
      default: break;
    }
  }
  if (!symtab || !strtab) return "the extension has no dynamic symbol table";
  for (int t = 0; t < 2; ++t) {
    if (!tables[t]) continue;
    for (size_t i = 0; i < sizes[t] / sizeof(ElfW(Rela)); ++i) {
      const ElfW(Rela)& r = tables[t][i];
      if (!is_symbol_slot(ELF64_R_TYPE(r.r_info))) continue;
      const ElfW(Sym)& sym = symtab[ELF64_R_SYM(r.r_info)];
      if (std::strcmp(strtab + sym.st_name, "dlsym") != 0) continue;
      auto* slot = reinterpret_cast<void**>(s.base + r.r_offset);
      if (!write_slot(slot, reinterpret_cast<void*>(&torchabi_recording_dlsym), s))
        return "the extension's GOT could not be made writable";
    }
  }
  return "";
}

std::vector<NameLookup> take_name_lookups() {
  Log& l = log();
  std::lock_guard lock(l.mu);
  return std::exchange(l.pending, {});
}

}  // namespace torchabi::runtime_driver
