// The real dynamic linker as the referee of `audit --torch`: what `ldd -r`
// finds undefined and what dlopen(RTLD_NOW) says, with the library path the
// test chooses. Where the real libraries cannot be loaded on this system
// (Debian sid's libtorch needs a newer glibc), export stubs stand in for them
// (tests/support/make_export_stubs.py: same sonames and exported symbols,
// read with binutils, no code).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "cli_harness.h"

namespace torchabi::e2e::loader {

struct Shell {
  int exit_code = -1;
  std::string out;  // stdout and stderr
};

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline Shell shell(const std::string& cmd) {
  Shell r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string env(const std::string& library_path, const std::string& preload) {
  std::string e = "env -u LD_LIBRARY_PATH -u LD_PRELOAD";
  if (!library_path.empty()) e += " LD_LIBRARY_PATH=" + quote(library_path);
  if (!preload.empty()) e += " LD_PRELOAD=" + quote(preload);
  return e + " ";
}

// The dynamic loader (PT_INTERP of the system's programs).
inline std::string dynamic_loader() {
  const Shell r = shell("readelf -lW /bin/true");
  const std::string key = "interpreter: ";
  const size_t pos = r.out.find(key);
  if (pos == std::string::npos) return "/lib64/ld-linux-x86-64.so.2";
  return r.out.substr(pos + key.size(), r.out.find(']', pos) - pos - key.size());
}

// The imports the dynamic linker leaves undefined after binding everything
// ("undefined symbol: NAME[, version V]\t(LIB)"), as NAME: `ldd -r`, run
// as ldd runs it but with the loader called directly, so that a preloaded
// library (torch loaded globally) goes into the traced library only, not
// into ldd's own shell.
inline std::set<std::string> ldd_undefined(const std::string& lib, const std::string& library_path,
                                           const std::string& preload = "") {
  std::string cmd = env(library_path, "") + "LD_TRACE_LOADED_OBJECTS=1 LD_WARN=yes LD_BIND_NOW=yes " +
                    quote(dynamic_loader());
  if (!preload.empty()) cmd += " --preload " + quote(preload);
  const Shell r = shell(cmd + " " + quote(lib));
  std::set<std::string> out;
  size_t pos = 0;
  const std::string key = "undefined symbol: ";
  while ((pos = r.out.find(key, pos)) != std::string::npos) {
    pos += key.size();
    const size_t end = r.out.find_first_of(",\t\n", pos);
    out.insert(r.out.substr(pos, end - pos));
  }
  return out;
}

// tests/support/try_dlopen: dlopen(RTLD_NOW) and dlerror()'s text.
inline Shell try_dlopen(const std::string& lib, const std::string& library_path) {
  return shell(env(library_path, "") + quote(TORCHABI_TRY_DLOPEN) + " " + quote(std::filesystem::absolute(lib).string()));
}

// The symbol a dlopen error names ("...: undefined symbol: NAME"), or "".
inline std::string undefined_in(const std::string& dlerror) {
  const std::string key = "undefined symbol: ";
  const size_t pos = dlerror.find(key);
  if (pos == std::string::npos) return {};
  return dlerror.substr(pos + key.size(), dlerror.find_first_of(",\n", pos + key.size()) - pos - key.size());
}

// Export stubs of the libraries in `libdir` named `libs` (by file), each
// also reachable by the given aliases ("libc10.so=libc10.so.1.13,libc10.so").
// Kept in the build tree, keyed by the libraries' sizes and times, so every
// test process after the first reuses them (building takes seconds).
inline std::string export_stubs(const std::string& libdir, const std::vector<std::string>& libs_with_aliases) {
  namespace fs = std::filesystem;
  std::string key = libdir;
  for (const auto& l : libs_with_aliases) {
    const fs::path lib = fs::path(libdir) / l.substr(0, l.find('='));
    std::error_code ec;
    key += "|" + l + "|" + std::to_string(fs::file_size(lib, ec)) + "|" +
           std::to_string(fs::last_write_time(lib, ec).time_since_epoch().count());
  }
  const std::string out = build_dir() + "/tests/e2e/export-stubs/" + std::to_string(std::hash<std::string>{}(key));
  if (fs::exists(out + "/.complete")) return out;
  fs::remove_all(out);
  std::string cmd = "python3 " + quote(source_dir() + "/tests/support/make_export_stubs.py") + " " + quote(out);
  for (const auto& l : libs_with_aliases) cmd += " " + quote(libdir + "/" + l);
  const Shell r = shell(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.out;
  if (r.exit_code == 0) std::ofstream(out + "/.complete") << key << "\n";
  return out;
}

}  // namespace torchabi::e2e::loader
