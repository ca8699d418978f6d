// PyTorch's own operators (rules/schema/aten_ops.tsv): the reader lives in
// inputs/aten_ops.h, shared with lint's source checks; the registration
// checks keep using it under these names.
#pragma once

#include "inputs/aten_ops.h"

namespace torchabi::schema {

using AtenOp = inputs::AtenOp;
using AtenOps = inputs::AtenOps;

}  // namespace torchabi::schema
