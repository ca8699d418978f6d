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

}  // namespace torchabi::source::libclang
