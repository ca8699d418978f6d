// libzip, loaded on first use instead of linked. Reading wheels and .conda
// packages calls zip_* as usual (<zip.h>); every such function is a
// forwarder (generated from <zip.h> by generate_forwarders.py) that loads
// libzip the first time any of them is called. libzip brings libcrypto,
// whose relocations cost every process ~1 ms at start (bench/audit): an
// audit of a .so, `run`, `lint` and `--version` no longer pay it.
#pragma once

namespace torchabi::inputs::libzip {

// Loads libzip (once per process; any thread may call). Throws InputError,
// one line naming the library, when it cannot be loaded.
void load();

// For the forwarders: opens libzip, the copy shipped next to the binary
// (../lib/<soname>: the wheel) when there is one, else its soname on the
// library path; and resolves one function (InputError when absent).
void* open_library();
void* resolve(void* handle, const char* name);

}  // namespace torchabi::inputs::libzip
