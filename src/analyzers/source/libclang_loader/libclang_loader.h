// torchabi does not link libclang: the dynamic loader would spend ~20 ms
// relocating libclang and libLLVM at every start, also for `audit` and `run`,
// which never parse C++. Instead every clang_* function the analyzers call is
// a forwarder (generated from functions.txt) that loads libclang the first
// time any of them is called. Callers keep using <clang-c/Index.h> as usual.
#pragma once

#include <string>

namespace torchabi::source::libclang {

// Loads libclang and resolves every function torchabi calls, once per
// process; later calls cost nothing and any thread may call it. Throws
// InputError (one line naming the library) when libclang cannot be loaded.
// Work that forks per translation unit calls it first, so that the children
// inherit the loaded library and a missing libclang fails the command once.
void load();

// Whether this process has loaded libclang (and with it libLLVM).
bool was_loaded();

// The file libclang was loaded from (empty before it is loaded).
std::string loaded_path();

// For --version, without loading it: the release torchabi was built against
// and the file a command that parses sources would load, in the order
// load() tries them ($TORCHABI_LIBCLANG; the copy shipped next to the binary,
// ../lib/<soname>, as in the wheel; the library the build was configured
// with; its soname on the library path). Throws InputError when
// $TORCHABI_LIBCLANG names a file that does not exist.
std::string describe();

// What a parse's result depends on of the libclang used, without loading it:
// the release, the file load() would open and the arguments it would add
// (extra_arguments()). For cache keys: a result parsed by another libclang,
// or with other clang headers, is not reused.
std::string identity();

}  // namespace torchabi::source::libclang
