#include "analyzers/source/libclang_loader/libclang_library.h"

#include <atomic>

#include <cstdlib>
#include <dlfcn.h>
#include <string>

#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "common/input_error.h"

namespace torchabi::source::libclang {

namespace {

// Recorded by CMake when it found libclang (see CMakeLists.txt).
constexpr const char* kConfiguredPath = TORCHABI_LIBCLANG_PATH;
constexpr const char* kSoname = TORCHABI_LIBCLANG_SONAME;
constexpr const char* kWhoNeedsIt = "lint, migrate and the registration checks need libclang";

// Set by open_library() for resolve()'s messages; both run inside the one
// thread-safe initialisation of the generated forwarders' table.
std::string loaded_from;
std::atomic<bool> opened{false};

// dlerror() repeats the file name first; the InputError names it already.
std::string reason(const std::string& file) {
  const char* e = dlerror();
  std::string r = e ? e : "unknown error";
  if (r.rfind(file + ": ", 0) == 0) r.erase(0, file.size() + 2);
  return r;
}

void* try_open(const std::string& file, std::string* why) {
  // RTLD_LAZY: functions are bound when first called, so loading costs only
  // the relocations libclang and libLLVM cannot defer.
  void* h = dlopen(file.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!h) *why = reason(file);
  else opened = true;
  return h;
}

}  // namespace

void* open_library() {
  std::string why;
  if (const char* env = std::getenv("TORCHABI_LIBCLANG"); env && *env) {
    if (void* h = try_open(env, &why)) return loaded_from = env, h;
    throw InputError(env, "cannot load libclang (from TORCHABI_LIBCLANG): " + why + "; " + kWhoNeedsIt);
  }
  if (void* h = try_open(kConfiguredPath, &why)) return loaded_from = kConfiguredPath, h;
  std::string why_soname;
  if (void* h = try_open(kSoname, &why_soname)) return loaded_from = kSoname, h;
  throw InputError(kConfiguredPath, "cannot load libclang: " + why + " (nor " + kSoname + " on the library path: " +
                                        why_soname + "); " + kWhoNeedsIt + " (set TORCHABI_LIBCLANG to its path)");
}

bool was_loaded() { return opened; }

std::string loaded_path() { return opened ? loaded_from : std::string(); }

void* resolve(void* handle, const char* name) {
  dlerror();
  void* fn = dlsym(handle, name);
  if (!fn)
    throw InputError(loaded_from, std::string("not libclang, or older than the one torchabi was built with: "
                                              "it has no function ") + name + "; " + kWhoNeedsIt);
  return fn;
}

}  // namespace torchabi::source::libclang
