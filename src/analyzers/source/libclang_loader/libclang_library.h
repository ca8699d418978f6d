// The dlopen/dlsym half of the libclang loader, used by the generated
// forwarders (see libclang_loader.h).
#pragma once

namespace torchabi::source::libclang {

// Opens libclang: $TORCHABI_LIBCLANG when set (and only that), else the
// library the build was configured with, else its soname on the default
// search path. Throws InputError naming the library when none loads.
void* open_library();

// The address of `name` in the library; throws InputError when it is absent
// (a libclang older than the one torchabi was built against).
void* resolve(void* handle, const char* name);

}  // namespace torchabi::source::libclang
