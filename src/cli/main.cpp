// torchabi: checks PyTorch extensions against the LibTorch stable ABI.
// The command line lives in the torchabi_cli library, which compiles while the
// analyzer libraries do (CMAKE_OPTIMIZE_DEPENDENCIES); only this file and the
// link wait for all of them (bench/build).
#include "cli/tool_main.h"

int main(int argc, char** argv) { return torchabi::cli::tool_main(argc, argv); }
