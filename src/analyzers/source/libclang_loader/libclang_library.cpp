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

// The major release of the libclang in `file`, from its name (libclang-19.so.1,
// libclang.so.19), else the one torchabi was built against.
std::string major_of(const std::string& file) {
  const std::string name = file.substr(file.rfind('/') + 1);
  auto digits_at = [&](size_t p) {
    size_t e = p;
    while (e < name.size() && name[e] >= '0' && name[e] <= '9') ++e;
    return name.substr(p, e - p);
  };
  if (name.rfind("libclang-", 0) == 0)
    if (std::string d = digits_at(9); !d.empty()) return d;
  if (name.rfind("libclang.so.", 0) == 0)
    if (std::string d = digits_at(12); !d.empty()) return d;
  const std::string built = kBuiltAgainst;
  return built.substr(0, built.find('.'));
}

std::string real_path(const std::string& p) {
  char* r = ::realpath(p.c_str(), nullptr);
  if (!r) return {};
  std::string out = r;
  std::free(r);
  return out;
}

// The resource directory (clang's own headers: stddef.h, ..., and
// include/cuda_wrappers) that belongs with the libclang at `library`, or "".
// clang's driver inside libclang does not know where it is installed (it has
// no executable path), so without -resource-dir it derives its resource
// directory from nothing: libclang's front end still finds the builtin
// headers by itself, but what only the driver adds is lost -- in CUDA mode
// include/cuda_wrappers, clang's <new>, <cmath>, <complex> and <algorithm>
// with the __device__ overloads (placement new in CUB's kernels, std::min in
// Thrust) that clang's CUDA support puts first in the search path. Looked for
// as LLVM installs it (<libdir>/clang/<major>: upstream, Fedora, the wheel)
// and as Debian and Ubuntu do (libclang1-N's file in the multiarch directory,
// its headers in /usr/lib/llvm-N/lib/clang/N), next to the file and next to
// its real path.
std::string resource_dir_for(const std::string& library) {
  if (library.find('/') == std::string::npos) return {};  // a soname: where the loader finds it is not known here
  const std::string major = major_of(library);
  if (major.empty()) return {};
  std::vector<std::string> dirs = {library.substr(0, library.rfind('/'))};
  if (const std::string real = real_path(library); !real.empty()) dirs.push_back(real.substr(0, real.rfind('/')));
  for (const auto& dir : dirs)
    for (const std::string& cand : {dir + "/clang/" + major, dir + "/../llvm-" + major + "/lib/clang/" + major})
      if (is_file(cand + "/include/stddef.h")) {
        const std::string real = real_path(cand);
        return real.empty() ? cand : real;
      }
  return {};
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
  std::string file = kConfiguredPath;
  if (const char* env = std::getenv("TORCHABI_LIBCLANG"); env && *env) file = env;
  else if (const std::string vendored = vendored_path(); !vendored.empty()) file = vendored;
  const std::string resource = resource_dir_for(file);
  return id + file + (resource.empty() ? std::string() : "\n-resource-dir " + resource);
}

const std::vector<const char*>& extra_arguments() {
  // Computed once, after open_library() chose the file (the forwarders call
  // this only after loading).
  static const std::vector<const char*> args = [] {
    std::vector<const char*> a;
    static const std::string dir = resource_dir_for(loaded_from);
    if (!dir.empty()) a = {"-resource-dir", dir.c_str()};
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
