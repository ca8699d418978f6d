// toml++'s parser and formatters, compiled once. The library is header-only
// by default, which compiles its parser into every translation unit that
// includes it (about 3.5 s of -O2 each, bench/build); with TOML_HEADER_ONLY=0
// (the torchabi_toml target's usage requirement) its headers only declare them,
// and this file defines them.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
