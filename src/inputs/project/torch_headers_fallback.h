// A configuration whose include directories hold no PyTorch headers, read
// from a build that gets them from somewhere torchabi cannot follow: a
// libtorch FetchContent downloads (`-I${libtorch_SOURCE_DIR}/include`, empty
// when read without a configure), a path only the build machine has. Its
// stable sources would then be "headers not found", an error about the
// reading, not the code. The torch headers in use (--torch-include, the
// interpreter's torch) are added after the build's own include directories,
// and a fact names the configurations that needed them.
#pragma once

#include "inputs/project/project_build.h"
#include "inputs/project/torch_location.h"

namespace torchabi::inputs {

void add_torch_headers_where_missing(ProjectBuild& b, const TorchLocation& torch);

}  // namespace torchabi::inputs
