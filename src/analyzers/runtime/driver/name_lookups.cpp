#include "analyzers/runtime/driver/name_lookups.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "common/mapped_file.h"

namespace torchabi::runtime_driver {
namespace {

// The bytes of the section called `wanted`, or empty. Bounds are checked:
// a damaged file yields nothing rather than a crash.
std::string_view section(std::span<const std::byte> file, const char* wanted) {
  if (file.size() < sizeof(Elf64_Ehdr)) return {};
  Elf64_Ehdr eh;
  std::memcpy(&eh, file.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return {};
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
      eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr) > file.size())
    return {};
  auto header = [&](size_t i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, file.data() + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof sh);
    return sh;
  };
  auto bytes = [&](const Elf64_Shdr& sh) -> std::string_view {
    if (sh.sh_type == SHT_NOBITS || sh.sh_offset + sh.sh_size > file.size()) return {};
    return {reinterpret_cast<const char*>(file.data() + sh.sh_offset), sh.sh_size};
  };
  const std::string_view names = bytes(header(eh.e_shstrndx));
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr sh = header(i);
    if (sh.sh_name >= names.size()) continue;
    std::string_view name = names.substr(sh.sh_name);
    name = name.substr(0, name.find('\0'));
    if (name == wanted) return bytes(sh);
  }
  return {};
}

}  // namespace

std::vector<std::string> functions_named_in_strings(const std::string& path, const std::vector<std::string>& imports,
                                                    const inputs::ApiCatalog& catalog) {
  MappedFile file(path);
  const std::string_view rodata = section(file.bytes(), ".rodata");
  const std::set<std::string_view> imported(imports.begin(), imports.end());
  std::set<std::string> out;
  // A name passed to dlsym is a whole NUL-terminated string.
  for (size_t start = 0; start < rodata.size();) {
    size_t end = rodata.find('\0', start);
    if (end == std::string_view::npos) end = rodata.size();
    std::string_view s = rodata.substr(start, end - start);
    start = end + 1;
    if (s.size() < 6 || !inputs::ApiCatalog::looks_like_shim(s) || imported.count(s)) continue;
    if (const inputs::CFunction* f = catalog.find_c(s); f && !f->is_type) out.emplace(s);
  }
  return {out.begin(), out.end()};
}

std::vector<std::pair<std::string, std::string>> name_lookup_facts(const std::vector<NameLookup>& observed,
                                                                   const std::vector<std::string>& named,
                                                                   const inputs::ApiCatalog& catalog,
                                                                   const TorchVersion& release) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> done;
  auto add = [&](const std::string& name, const NameLookup* seen) {
    const inputs::CFunction* f = catalog.find_c(name);
    if (!f || f->is_type || !done.insert(name).second) return;
    const bool has = f->baseline || !(release < f->since);
    std::string v = has ? "present in the emulated " + release.str()
                        : "absent in " + release.str() + ": the extension takes its fallback";
    if (!seen) v += " (named in its strings; the calls run here did not look it up)";
    else if (seen->found != has) v += " (but the lookup " + std::string(seen->found ? "found" : "did not find") + " it)";
    out.emplace_back("looked up by name " + name + " (" + f->since_label() + ")", v);
  };
  for (const auto& l : observed) add(l.name, &l);
  for (const auto& n : named) add(n, nullptr);
  return out;
}

}  // namespace torchabi::runtime_driver
