// PyTorch's own distribution met by `audit`: a directory walk, a wheel of
// torch or `check` reports it as one line — it is what extensions are judged
// against, and auditing it as one (libtorch_python.so alone imports thousands
// of unstable C++ symbols, of course) only buries the extensions' findings.
// A library of it named explicitly is still audited, with a note saying what
// it is (binary-torch-itself).
#pragma once

#include <cstddef>
#include <string>

#include "findings/finding.h"
#include "inputs/python/torch_distribution.h"

namespace torchabi::binary {

// "PyTorch 2.14.1 itself: not an extension".
std::string torch_itself_line(const std::string& version);

// The one entry standing for `libraries` files of `torch` found by a walk.
findings::Subject torch_itself_subject(const inputs::TorchDistribution& torch, size_t libraries);

// The note added to a library of `torch` that was named explicitly.
findings::Finding torch_itself_note(const inputs::TorchDistribution& torch, const std::string& path);

}  // namespace torchabi::binary
