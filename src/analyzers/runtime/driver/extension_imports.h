// What an extension needs from the process it is loaded into, read from its
// dynamic section before it is loaded: the libraries it names (DT_NEEDED) and
// the symbols it imports. `torchabi run --torch-version` compares the imports
// with the catalog to name every stable function the release lacks.
#pragma once

#include <string>
#include <vector>

namespace torchabi::runtime_driver {

struct ExtensionImports {
  std::vector<std::string> needed;
  std::vector<std::string> undefined;  // imported (undefined, non-local) symbols
};

// Throws InputError naming `path` when it is missing or not a 64-bit ELF library.
ExtensionImports read_extension_imports(const std::string& path);

}  // namespace torchabi::runtime_driver
