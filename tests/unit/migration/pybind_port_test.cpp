// PYBIND11_MODULE -> STABLE_TORCH_LIBRARY (pybind_port.h): schemas from the
// bound functions' C++ signatures; anything else leaves the module alone.
#include <gtest/gtest.h>

#include "analyzers/migration/pybind_port.h"

using namespace torchabi::migration;

TEST(PybindPort, SchemaTypesOfCppTypes) {
  EXPECT_EQ(schema_type_of("const torch::Tensor&"), "Tensor");
  EXPECT_EQ(schema_type_of("at::Tensor"), "Tensor");
  EXPECT_EQ(schema_type_of("std::vector<torch::Tensor>"), "Tensor[]");
  EXPECT_EQ(schema_type_of("std::tuple<at::Tensor, at::Tensor>"), "(Tensor, Tensor)");
  EXPECT_EQ(schema_type_of("c10::optional<at::Tensor>"), "Tensor?");
  EXPECT_EQ(schema_type_of("int64_t"), "int");
  EXPECT_EQ(schema_type_of("double"), "float");
  EXPECT_EQ(schema_type_of("void"), "()");
  EXPECT_EQ(schema_type_of("py::object"), "");
}

TEST(PybindPort, RegistersEachBoundFunctionWithItsSchema) {
  const std::string text = R"(#include <torch/extension.h>
#include <vector>

// doc
std::vector<torch::Tensor> fwd(torch::Tensor input, const torch::Tensor& w, int64_t n) {
  return {input};
}

torch::Tensor scale(torch::Tensor x, double s) { return x; }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &fwd, "forward");  // comment
  m.def("scale", &scale);
}
)";
  std::string why;
  auto p = port_pybind_module(text, text.find("PYBIND11_MODULE"), "mylib", why);
  ASSERT_TRUE(p) << why;
  EXPECT_EQ(p->library, "mylib");
  ASSERT_EQ(p->schemas.size(), 2u);
  EXPECT_EQ(p->schemas[0], "forward(Tensor input, Tensor w, int n) -> Tensor[]");
  EXPECT_EQ(p->schemas[1], "scale(Tensor x, float s) -> Tensor");
  EXPECT_EQ(p->replacement,
            "STABLE_TORCH_LIBRARY(mylib, m) {\n"
            "  m.def(\"forward(Tensor input, Tensor w, int n) -> Tensor[]\").impl(\"forward\", TORCH_BOX(&fwd));\n"
            "  m.def(\"scale(Tensor x, float s) -> Tensor\").impl(\"scale\", TORCH_BOX(&scale));\n}");
  EXPECT_EQ(text.substr(p->end - 1, 1), "}");
  EXPECT_EQ(p->python_calls[0], "<your extension module>.forward(...) -> torch.ops.mylib.forward(...)");
}

// The CUDA extensions' CHECK_INPUT trio: a `;` inside the #define before a
// function is not the end of the declaration before it.
TEST(PybindPort, AFunctionAfterAMacroWithStatementsKeepsItsReturnType) {
  const std::string text = R"(#include <torch/extension.h>
#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x)
#define CHECK_INPUT(x) CHECK_CUDA(x); \
  CHECK_CUDA(x)

std::vector<torch::Tensor> fwd(torch::Tensor input) {
  CHECK_INPUT(input);
  return {input};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &fwd, "forward"); }
)";
  std::string why;
  auto p = port_pybind_module(text, text.find("PYBIND11_MODULE"), "lltm_cuda", why);
  ASSERT_TRUE(p) << why;
  ASSERT_EQ(p->schemas.size(), 1u);
  EXPECT_EQ(p->schemas[0], "forward(Tensor input) -> Tensor[]");
}

// An empty module only makes the library importable: Python's C API writes
// it, named after the build's TORCH_EXTENSION_NAME or the module's own name.
TEST(PybindPort, AnEmptyModuleBecomesItsPyInitOnPythonsCApi) {
  const std::string text = "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { /* registrations below */ }\n";
  std::string why;
  auto p = port_pybind_module(text, 0, "ext", why);
  ASSERT_TRUE(p) << why;
  EXPECT_TRUE(p->import_only);
  EXPECT_TRUE(p->schemas.empty());
  EXPECT_EQ(p->end, text.size() - 1);
  EXPECT_NE(p->replacement.find("extern \"C\" PyObject* STABLE_EXT_PYINIT(TORCH_EXTENSION_NAME)(void) {"),
            std::string::npos)
      << p->replacement;
  EXPECT_NE(p->replacement.find("#define STABLE_EXT_PYINIT_(name) PyInit_##name"), std::string::npos);
  EXPECT_NE(p->replacement.find("return PyModule_Create(&module_def);"), std::string::npos);
  auto named = port_pybind_module("PYBIND11_MODULE(_C, m) {}", 0, "ext", why);
  ASSERT_TRUE(named) << why;
  EXPECT_NE(named->replacement.find("extern \"C\" PyObject* PyInit__C(void) {"), std::string::npos)
      << named->replacement;
  EXPECT_NE(named->replacement.find("{PyModuleDef_HEAD_INIT, \"_C\", nullptr, -1, nullptr}"), std::string::npos);
  EXPECT_EQ(named->replacement.find("#define"), std::string::npos);
  // A module that binds something is not import-only.
  auto bound = port_pybind_module("int f(int a);\nPYBIND11_MODULE(x, m) { m.attr(\"v\") = 1; }", 14, "ext", why);
  EXPECT_FALSE(bound);
}

TEST(PybindPort, LeavesModulesWithClassesLambdasOrUnknownTypesAlone) {
  for (const std::string body : {"  py::class_<Foo>(m, \"Foo\");\n", "  m.def(\"f\", [](int x) { return x; });\n",
                                 "  m.def(\"g\", &g, py::arg(\"x\"));\n", "  m.def(\"h\", &h);\n"}) {
    const std::string text = "py::object h(py::object o) { return o; }\nint g(int x) { return x; }\n"
                             "PYBIND11_MODULE(ext, m) {\n" + body + "}\n";
    std::string why;
    EXPECT_FALSE(port_pybind_module(text, text.find("PYBIND11_MODULE"), "ext", why)) << body;
    EXPECT_FALSE(why.empty()) << body;
  }
}
