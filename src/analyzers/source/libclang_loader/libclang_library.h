// The dlopen/dlsym half of the libclang loader, used by the generated
// forwarders (see libclang_loader.h).
#pragma once

#include <vector>

namespace torchabi::source::libclang {

// Opens libclang: $TORCHABI_LIBCLANG when set (and only that), else the
// copy shipped next to the binary (../lib/<soname>: the wheel) when there is
// one (and only that), else the library the build was configured with, else
// its soname on the default search path. Throws InputError naming the library when none loads.
void* open_library();

// The address of `name` in the library; throws InputError when it is absent
// (a libclang older than the one torchabi was built against).
void* resolve(void* handle, const char* name);

// Arguments every parse passes first, for the libclang loaded (after
// open_library()): "-resource-dir DIR", the clang headers (stddef.h, ...,
// include/cuda_wrappers) that belong with it -- for the copy shipped next to
// the binary (the wheel) <prefix>/lib/clang/<major>, since a libclang built
// for a distribution looks for them where that distribution installs them;
// for a system libclang its installation's, since clang's driver inside
// libclang cannot find them itself and CUDA parses need the wrappers it adds
// (libclang_library.cpp). Empty when none is found.
const std::vector<const char*>& extra_arguments();

}  // namespace torchabi::source::libclang
