// Does a library load on a given PyTorch install? Answers it the way glibc's
// dynamic linker would, from the tables alone (nothing is loaded or run):
//   1. every DT_NEEDED entry that is PyTorch's (libtorch_cpu.so.2.14,
//      libc10.so, ...) must be a file name or soname of the install;
//   2. every GNU version required of those libraries must be defined there;
//   3. every import must be defined, with a matching version, by a library
//      of the DT_NEEDED closure inside the install (DT_NEEDED followed
//      transitively among the install's libraries).
// Imports satisfied outside PyTorch (libc, libstdc++, Python, the
// extension's own libraries) are not PyTorch's business and are never
// reported: an unresolved import counts as missing only when it is
// PyTorch's — a versioned import of one of its libraries, a name the
// install defines elsewhere, or a shim/at::/c10::/torch:: name.
// A library linking no PyTorch library at all is resolved against the whole
// install, as when torch is loaded with RTLD_GLOBAL (and the result says so).
#pragma once

#include <vector>

#include "findings/finding.h"

namespace torchabi::inputs {
class ElfView;
class TorchInstall;
}  // namespace torchabi::inputs

namespace torchabi::binary {

class SymbolClassifier;

struct LoadResolution {
  findings::TorchLoad load;
  // Libraries of the install that could not be read (corrupt, unreadable);
  // they are treated as absent.
  std::vector<findings::InputFailure> failures;
};

LoadResolution resolve_on_torch(const inputs::ElfView& library, inputs::TorchInstall& torch,
                                SymbolClassifier& classifier);

}  // namespace torchabi::binary
