/* Loads a shared library the way Python imports an extension module
 * (dlopen with RTLD_NOW: every import bound before it returns) and says
 * what the dynamic linker said. For tests that check torchabi's verdicts
 * against the real loader.
 *
 *   try_dlopen LIB     exit 0 and "loaded", or exit 1 and dlerror()'s text
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: try_dlopen LIB\n");
    return 2;
  }
  void* handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    printf("%s\n", dlerror());
    return 1;
  }
  printf("loaded\n");
  return 0;
}
