// "The function is there, with other parameters": for C++ functions an
// install does not define, finds the exports of the install with the same
// qualified name (scope and base name) and a different mangling — the usual
// reason an extension built against one PyTorch fails on another
// (c10::optional became std::optional, a parameter was added, ...).
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {
class TorchInstall;
}

namespace torchabi::binary {

struct OtherSignature {
  std::string demangled;  // the install's function, demangled
  std::string library;    // the library defining it
};

// For each of `mangled` (C++ functions; anything else gets no candidates),
// up to `limit` other signatures, sorted. Reads every library of the install
// once: the exports are filtered by the base name's mangled spelling before
// anything is demangled, so the cost is one pass over the names.
std::vector<std::vector<OtherSignature>> find_other_signatures(const std::vector<std::string>& mangled,
                                                               inputs::TorchInstall& torch, size_t limit = 4);

// "c10::impl::cow::materialize_cow_storage" for a mangled function; empty
// when it is not a C++ function. Exposed for tests.
std::string qualified_function_name(const std::string& mangled);

}  // namespace torchabi::binary
