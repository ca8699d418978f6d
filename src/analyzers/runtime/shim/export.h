// Included by every file that defines stable C entry points. The generated
// declarations make the compiler reject a definition whose signature differs
// from the catalog's prototype; which names are exported for a given PyTorch
// release is decided by the generated linker version scripts.
#pragma once

#include "analyzers/runtime/shim/abi_types.h"
#include "analyzers/runtime/shim/shim_declarations.h"

#define TORCHABI_SHIM extern "C" __attribute__((visibility("default")))
