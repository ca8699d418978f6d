#include "inputs/libzip_loader/libzip_loader.h"

#include <dlfcn.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "common/input_error.h"
#include "common/install_layout.h"

namespace torchabi::inputs::libzip {

namespace {

// Recorded by CMake from the libzip the build found (CMakeLists.txt).
constexpr const char* kSoname = TORCHABI_LIBZIP_SONAME;

// The copy shipped with the binary (an install prefix's or the wheel
// package's lib/: common/install_layout.h), if there is one.
std::string next_to_binary() {
  if (install_layout::root().empty()) return {};
  const std::string p = install_layout::root().string() + "/lib/" + kSoname;
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? p : std::string();
}

}  // namespace

void* open_library() {
  std::string file = next_to_binary();
  if (file.empty()) file = kSoname;
  // RTLD_LAZY: functions bound when first called.
  if (void* h = dlopen(file.c_str(), RTLD_LAZY | RTLD_LOCAL)) return h;
  const char* e = dlerror();
  throw InputError(file, std::string("cannot load libzip, which reading wheels and conda packages needs: ") +
                             (e ? e : "unknown error"));
}

void* resolve(void* handle, const char* name) {
  dlerror();
  if (void* fn = dlsym(handle, name)) return fn;
  throw InputError(kSoname, std::string("libzip has no function ") + name + " (older than the one torchabi was built with)");
}

}  // namespace torchabi::inputs::libzip
