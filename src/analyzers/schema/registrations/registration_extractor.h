// Reads a parsed translation unit's registrations from the libclang AST:
// the init functions STABLE_TORCH_LIBRARY* / TORCH_LIBRARY* expand to (so
// blocks written through project wrapper macros are found too), the
// m.def / m.impl / m.class_ calls in them, the kernels they name, and the
// bodies of hand-written boxed kernels. Code it cannot follow is left out,
// never guessed.
#pragma once

#include "analyzers/schema/registrations/registration_model.h"
#include "analyzers/source/front_end.h"

namespace torchabi::schema {

TuRegistrations extract_registrations(const source::ParsedTu& tu);

}  // namespace torchabi::schema
