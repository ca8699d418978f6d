// What an extension registered while it was loaded: the libraries its
// STABLE_TORCH_LIBRARY* blocks created (their static initialisers call
// aoti_torch_library_init_*), the schemas it defined and the boxed kernels it
// implemented, with the extension_build_version torch_library_impl reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/runtime/shim/abi_types.h"

namespace torchabi::runtime {

enum class LibraryKind { Def, Impl, Fragment };

// The macro that creates a library of this kind.
inline const char* to_string(LibraryKind k) {
  switch (k) {
    case LibraryKind::Def: return "STABLE_TORCH_LIBRARY";
    case LibraryKind::Impl: return "STABLE_TORCH_LIBRARY_IMPL";
    case LibraryKind::Fragment: return "STABLE_TORCH_LIBRARY_FRAGMENT";
  }
  return "library";
}

struct LibraryRecord {
  uint64_t id = 0;
  LibraryKind kind = LibraryKind::Def;
  std::string ns;
  std::string dispatch_key;  // Impl libraries only
  std::string file;
  uint32_t line = 0;
  bool deleted = false;
  std::optional<std::string> python_module;
};

struct DefRecord {
  uint64_t library = 0;
  std::string ns;
  std::string schema;             // as passed to aoti_torch_library_def
  std::vector<std::string> tags;  // torch_library_def_with_tags
};

struct ImplRecord {
  uint64_t library = 0;
  std::string ns;
  std::string name;          // as passed: "add", "add.Tensor" or "ns::add"
  std::string dispatch_key;  // the library's key; empty for impls in a def/fragment block
  BoxedKernel fn = nullptr;
  std::optional<uint64_t> extension_build_version;  // set by torch_library_impl (2.10+)
  std::string via;           // the shim function that registered it
};

struct Registrations {
  std::vector<LibraryRecord> libraries;
  std::vector<DefRecord> defs;     // of libraries that were not deleted
  std::vector<ImplRecord> impls;   // of libraries that were not deleted
};

Registrations registrations();

}  // namespace torchabi::runtime
