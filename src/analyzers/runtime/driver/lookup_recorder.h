// Observes the symbols an extension looks up by name at run time
// (TORCH_DYNAMIC_VERSION_CALL: dlsym(RTLD_DEFAULT, "torch_exception_get_what")
// to reach a stable C function newer than its TORCH_TARGET_VERSION). The
// runtime library of each release exports only that release's functions, so
// the lookups already answer as that release would; this only records them.
#pragma once

#include <string>
#include <vector>

namespace torchabi::runtime_driver {

struct NameLookup {
  std::string name;
  bool found = false;
};

// Points the extension's own GOT entries for dlsym at a recorder that calls
// the real dlsym. Only the extension's calls are affected, nothing else in
// the process. Returns "" or why it could not (the lookups then go
// unrecorded). Lookups made while the extension loaded are not seen: its
// static initializers ran in dlopen, before this.
std::string record_name_lookups(void* extension_handle);

// The lookups recorded since the last call, first lookup of each name only.
std::vector<NameLookup> take_name_lookups();

}  // namespace torchabi::runtime_driver
