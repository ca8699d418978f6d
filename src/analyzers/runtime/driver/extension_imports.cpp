#include "analyzers/runtime/driver/extension_imports.h"

#include <elf.h>

#include "common/mapped_file.h"
#include "inputs/elf_view.h"

namespace torchabi::runtime_driver {

ExtensionImports read_extension_imports(const std::string& path) {
  MappedFile file(path);
  inputs::ElfView elf(file.bytes(), path);
  ExtensionImports out;
  for (auto n : elf.needed()) out.needed.emplace_back(n);
  for (size_t i = 1; i < elf.symbol_count(); ++i) {
    inputs::DynSymbol s = elf.symbol(i, /*with_name=*/false);
    if (s.defined || s.bind == STB_LOCAL) continue;
    s = elf.symbol(i);
    if (!s.name.empty()) out.undefined.emplace_back(s.name);
  }
  return out;
}

}  // namespace torchabi::runtime_driver
