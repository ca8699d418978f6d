#include "analyzers/source/libclang_version.h"

#include <clang-c/Index.h>

#include "analyzers/source/libclang_loader/libclang_loader.h"

namespace torchabi::source {

std::string libclang_version() {
  libclang::load();
  CXString v = clang_getClangVersion();
  const char* text = clang_getCString(v);
  std::string out = text ? text : "unknown version";
  clang_disposeString(v);
  return out + ", " + libclang::loaded_path();
}

}  // namespace torchabi::source
