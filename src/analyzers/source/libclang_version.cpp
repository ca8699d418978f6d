#include "analyzers/source/libclang_version.h"

#include <clang-c/Index.h>

#include "analyzers/source/libclang_loader/libclang_library.h"
#include "analyzers/source/libclang_loader/libclang_loader.h"

namespace torchabi::source {

std::string libclang_version() {
  libclang::load();
  CXString v = clang_getClangVersion();
  const char* text = clang_getCString(v);
  std::string out = text ? text : "unknown version";
  clang_disposeString(v);
  out += ", " + libclang::loaded_path();
  // Arguments every parse gets (the wheel's -resource-dir): part of what
  // parses a file, so part of the cache keys this string is in.
  for (const char* a : libclang::extra_arguments()) out += std::string(" ") + a;
  return out;
}

}  // namespace torchabi::source
