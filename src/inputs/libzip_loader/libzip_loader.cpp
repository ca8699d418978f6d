#include "inputs/libzip_loader/libzip_loader.h"

#include <dlfcn.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "common/input_error.h"

namespace torchabi::inputs::libzip {

namespace {

// Recorded by CMake from the libzip the build found (CMakeLists.txt).
constexpr const char* kSoname = TORCHABI_LIBZIP_SONAME;

std::string next_to_binary() {
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return {};
  // <prefix>/bin/torchabi -> <prefix>/lib/<soname>
  std::string p(exe, static_cast<size_t>(n));
  for (int up = 0; up < 2; ++up) p.erase(p.rfind('/') == std::string::npos ? 0 : p.rfind('/'));
  p += std::string("/lib/") + kSoname;
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
