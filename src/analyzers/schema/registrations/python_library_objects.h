// Ops that a project's Python defines or implements through a Library
// object: `lib = torch.library.Library("ns", "FRAGMENT")` and then
// `lib.define("name(Tensor x) -> Tensor")` / `lib.impl("name", fn, "CUDA")`.
// The schema there is unqualified: the namespace comes from the object, so
// the "ns::name" patterns of python_registrations.cpp do not see it.
#pragma once

#include <string>

#include "analyzers/schema/registrations/python_registrations.h"

namespace torchabi::schema {

// Adds the ops `text` (one Python file) defines or implements through Library
// objects bound to a name in that file.
void scan_library_objects(const std::string& text, PythonRegistrations& into);

}  // namespace torchabi::schema
