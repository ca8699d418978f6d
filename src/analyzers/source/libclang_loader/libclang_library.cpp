#include "analyzers/source/libclang_loader/libclang_library.h"

#include <atomic>

#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "common/input_error.h"
#include "common/install_layout.h"

namespace torchabi::source::libclang {

namespace {

// Recorded by CMake when it found libclang (see CMakeLists.txt).
constexpr const char* kConfiguredPath = TORCHABI_LIBCLANG_PATH;
constexpr const char* kSoname = TORCHABI_LIBCLANG_SONAME;
constexpr const char* kBuiltAgainst = TORCHABI_LIBCLANG_VERSION;
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

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The copy shipped with the binary (an install prefix's or the wheel
// package's lib/libclang-19.so.19: common/install_layout.h), if there is one.
std::string vendored_path() {
  const std::string root = install_layout::root().string();
  if (root.empty()) return {};
  std::string p = root + "/lib/" + kSoname;
  return is_file(p) ? p : std::string();
}

}  // namespace

void* open_library() {
  std::string why;
  if (const char* env = std::getenv("TORCHABI_LIBCLANG"); env && *env) {
    if (void* h = try_open(env, &why)) return loaded_from = env, h;
    throw InputError(env, "cannot load libclang (from TORCHABI_LIBCLANG): " + why + "; " + kWhoNeedsIt);
  }
  // A vendored copy that does not load (a broken install) is said so, not
  // silently replaced by another release found elsewhere.
  if (const std::string vendored = vendored_path(); !vendored.empty()) {
    if (void* h = try_open(vendored, &why)) return loaded_from = vendored, h;
    throw InputError(vendored, "cannot load the libclang shipped with torchabi: " + why + "; " + kWhoNeedsIt +
                                   " (set TORCHABI_LIBCLANG to another one)");
  }
  if (void* h = try_open(kConfiguredPath, &why)) return loaded_from = kConfiguredPath, h;
  std::string why_soname;
  if (void* h = try_open(kSoname, &why_soname)) return loaded_from = kSoname, h;
  throw InputError(kConfiguredPath, "cannot load libclang: " + why + " (nor " + kSoname + " on the library path: " +
                                        why_soname + "); " + kWhoNeedsIt + " (set TORCHABI_LIBCLANG to its path)");
}

std::string describe() {
  const std::string built = std::string("clang version ") + (*kBuiltAgainst ? kBuiltAgainst : "unknown");
  if (opened) return built + ", " + loaded_from;
  const char* how = " (loaded when a command parses sources)";
  if (const char* env = std::getenv("TORCHABI_LIBCLANG"); env && *env) {
    const std::string e = env;
    if (e.find('/') != std::string::npos && !is_file(e))
      throw InputError(e, "cannot load libclang (from TORCHABI_LIBCLANG): No such file; " + std::string(kWhoNeedsIt));
    return e + " from TORCHABI_LIBCLANG, its version read when it is loaded";
  }
  if (const std::string vendored = vendored_path(); !vendored.empty()) return built + ", " + vendored + how;
  if (is_file(kConfiguredPath)) return built + ", " + kConfiguredPath + how;
  return built + ", " + kSoname + " on the library path" + how;
}

std::string identity() {
  std::string id = std::string("libclang ") + kBuiltAgainst + "\n";
  if (const char* env = std::getenv("TORCHABI_LIBCLANG"); env && *env) return id + env;
  if (const std::string vendored = vendored_path(); !vendored.empty()) {
    std::string major = kBuiltAgainst;
    return id + vendored + "\n-resource-dir " + vendored.substr(0, vendored.rfind('/')) + "/clang/" +
           major.substr(0, major.find('.'));
  }
  return id + kConfiguredPath;
}

const std::vector<const char*>& extra_arguments() {
  // Computed once, after open_library() chose the file (the forwarders call
  // this only after loading).
  static const std::vector<const char*> args = [] {
    std::vector<const char*> a;
    const std::string vendored = vendored_path();
    if (vendored.empty() || loaded_from != vendored) return a;
    std::string major = kBuiltAgainst;
    major = major.substr(0, major.find('.'));
    static const std::string dir = vendored.substr(0, vendored.rfind('/')) + "/clang/" + major;
    struct stat st {};
    if (major.empty() || ::stat((dir + "/include").c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return a;
    a = {"-resource-dir", dir.c_str()};
    return a;
  }();
  return args;
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
