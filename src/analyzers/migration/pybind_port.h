// A pybind11 module that exposes functions taking and returning tensors,
// rewritten as operators of a stable library: tensors cannot cross pybind11
// without libtorch_python, but an operator registered with
// STABLE_TORCH_LIBRARY is called from Python as torch.ops.<library>.<name>.
//
//   PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
//     m.def("forward", &lltm_forward, "LLTM forward");
//   }
// becomes
//   STABLE_TORCH_LIBRARY(lltm, m) {
//     m.def("forward(Tensor input, Tensor weights) -> Tensor[]").impl("forward", TORCH_BOX(&lltm_forward));
//   }
//
// Each schema comes from the C++ signature of the bound function, found in
// the same file; a binding this cannot derive (a lambda, an overload set, a
// type with no schema spelling, a non-function binding such as py::class_)
// leaves the whole module as it is. An empty module, there only so that
// `import pkg._C` loads the library, becomes its PyInit function written with
// Python's (limited) C API.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::migration {

struct PybindPort {
  size_t begin = 0, end = 0;         // the module: from PYBIND11_MODULE through its closing brace
  std::string replacement;           // the STABLE_TORCH_LIBRARY block
  std::vector<std::string> schemas;  // one per binding, in order
  std::string library;               // the torch.ops namespace
  std::vector<std::string> python_calls;  // "lltm_cpp.forward(...) -> torch.ops.lltm.forward(...)"
  // An empty module (it only makes the library importable): `replacement` is
  // its PyInit function on Python's C API, which needs <Python.h>.
  bool import_only = false;
};

// `at` is the offset of PYBIND11_MODULE in `text`; `library` the namespace to
// register under (used when the module's name is the build's macro).
// nullopt with `why` set when the module cannot be rewritten mechanically.
std::optional<PybindPort> port_pybind_module(std::string_view text, size_t at, const std::string& library,
                                             std::string& why);

// The schema type of a C++ parameter or return type ("const torch::Tensor&"
// -> "Tensor", "std::vector<at::Tensor>" -> "Tensor[]"); empty when it has none.
std::string schema_type_of(std::string_view cpp_type);

}  // namespace torchabi::migration
