// A unit that only reaches legacy PyTorch headers, next to one that reaches
// the stable ABI, is legacy by design (inputs/project/legacy_by_design.h);
// a project that has ported nothing, and a unit that mixes both, are not.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "inputs/project/legacy_by_design.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

struct Tree {
  fs::path dir = fs::temp_directory_path() / ("torchabi-legacy-" + std::to_string(::getpid()) + "-" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Tree() {
    fs::create_directories(dir / "csrc");
    write("csrc/compat.h", "#pragma once\n#include <torch/csrc/stable/library.h>\n");
    write("csrc/stable_ops.cpp", "#include \"compat.h\"\n");  // stable through the project's header
    write("csrc/legacy_ops.cpp", "#include <torch/extension.h>\n");
    write("csrc/legacy_kernels.cu", "#include <ATen/ATen.h>\n");
    write("csrc/plain.cpp", "int f();\n");
    write("setup.py", "");
  }
  ~Tree() { fs::remove_all(dir); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir / rel) << text; }
  BuildConfiguration unit(const std::string& name, const std::string& compiler, std::vector<std::string> rel) {
    BuildConfiguration c;
    c.unit = name;
    c.compiler = compiler;
    c.platform = "linux";
    c.directory = dir.string();
    for (auto& r : rel) c.sources.push_back((dir / r).string());
    return c;
  }
  ProjectBuild project(std::vector<BuildConfiguration> cs) {
    ProjectBuild b;
    b.build_file = (dir / "setup.py").string();
    b.configurations = std::move(cs);
    return b;
  }
};

TEST(LegacyByDesign, ALegacyUnitNextToAStableOneIsNotHeldToTheStableAbi) {
  Tree t;
  ProjectBuild b = t.project({t.unit("target _C", "cxx", {"csrc/legacy_ops.cpp", "csrc/plain.cpp"}),
                              t.unit("target _C", "nvcc", {"csrc/legacy_kernels.cu"}),
                              t.unit("target _C_stable", "cxx", {"csrc/stable_ops.cpp", "csrc/plain.cpp"})});
  mark_legacy_by_design(b, "linux");
  EXPECT_FALSE(b.configurations[0].stable_expected);
  EXPECT_FALSE(b.configurations[1].stable_expected);
  EXPECT_TRUE(b.configurations[2].stable_expected);
  ASSERT_EQ(b.facts.size(), 1u);
  EXPECT_EQ(b.facts[0].first, "legacy by design");
  EXPECT_EQ(b.facts[0].second.rfind("target _C: 2 of 3 sources include ATen/c10/torch/extension.h headers and none "
                                    "the stable ABI, while target _C_stable uses it",
                                    0),
            0u)
      << b.facts[0].second;
}

TEST(LegacyByDesign, NothingPortedYetIsHeldToTheStableAbi) {
  Tree t;
  ProjectBuild b = t.project({t.unit("extension a", "cxx", {"csrc/legacy_ops.cpp"}),
                              t.unit("extension b", "nvcc", {"csrc/legacy_kernels.cu"})});
  mark_legacy_by_design(b, "linux");
  EXPECT_TRUE(b.configurations[0].stable_expected);
  EXPECT_TRUE(b.configurations[1].stable_expected);
  EXPECT_TRUE(b.facts.empty());
}

// A port that still includes ATen in one file is a port with a defect, not
// a legacy library: its legacy sources are linted.
TEST(LegacyByDesign, AUnitThatMixesBothIsLinted) {
  Tree t;
  ProjectBuild b = t.project({t.unit("extension ops", "cxx", {"csrc/stable_ops.cpp"}),
                              t.unit("extension ops", "nvcc", {"csrc/legacy_kernels.cu"}),
                              t.unit("extension other", "cxx", {"csrc/stable_ops.cpp"})});
  mark_legacy_by_design(b, "linux");
  for (const auto& c : b.configurations) EXPECT_TRUE(c.stable_expected) << c.label();
  EXPECT_TRUE(b.facts.empty());
}

// A helper both libraries share that uses only header-only C++ (vLLM-derived
// builds: cutlass_extensions/common.cpp with torch/headeronly/util/shim_utils.h
// in the legacy `_C`) does not make the legacy library a stable port: header-
// only C++ serves legacy code too. A source that reaches torch/csrc/stable
// does.
TEST(LegacyByDesign, AHeaderOnlyHelperDoesNotMakeALegacyUnitStable) {
  Tree t;
  t.write("csrc/shared.h", "#pragma once\n#include <torch/headeronly/util/shim_utils.h>\n");
  t.write("csrc/shared.cpp", "#include \"shared.h\"\n");
  ProjectBuild b = t.project({t.unit("target _C", "cxx", {"csrc/legacy_ops.cpp", "csrc/shared.cpp"}),
                              t.unit("target _C_stable", "cxx", {"csrc/stable_ops.cpp", "csrc/shared.cpp"})});
  mark_legacy_by_design(b, "linux");
  EXPECT_FALSE(b.configurations[0].stable_expected);
  EXPECT_TRUE(b.configurations[1].stable_expected);
  ASSERT_EQ(b.facts.size(), 1u);
  EXPECT_EQ(b.facts[0].second.rfind("target _C: 1 of 2 sources include", 0), 0u) << b.facts[0].second;

  // The same helper next to a source of the stable wrappers: a unit being ported, linted.
  t.write("csrc/wrapped.cpp", "#include \"shared.h\"\n#include <torch/csrc/stable/tensor.h>\n");
  ProjectBuild m = t.project({t.unit("target _C", "cxx", {"csrc/legacy_ops.cpp", "csrc/wrapped.cpp"}),
                              t.unit("target _C_stable", "cxx", {"csrc/stable_ops.cpp"})});
  mark_legacy_by_design(m, "linux");
  EXPECT_TRUE(m.configurations[0].stable_expected);
  EXPECT_TRUE(m.facts.empty());
}

// Issue 49: a stable source that also includes an ATen header (a port in
// progress) is not legacy; the unit is linted and the include reported.
TEST(LegacyByDesign, ASourceThatIncludesBothKindsIsAPortNotLegacy) {
  Tree t;
  t.write("csrc/half_ported.cpp",
          "#include <torch/csrc/stable/library.h>\n#include <ATen/core/Tensor.h>\n");
  ProjectBuild b = t.project({t.unit("extension a", "cxx", {"csrc/half_ported.cpp", "csrc/plain.cpp"}),
                              t.unit("extension b", "cxx", {"csrc/stable_ops.cpp"})});
  mark_legacy_by_design(b, "linux");
  EXPECT_TRUE(b.configurations[0].stable_expected);
  EXPECT_TRUE(b.facts.empty());

  // Both kinds in a project header the source includes: the same port.
  t.write("csrc/mixed.h", "#pragma once\n#include <ATen/ATen.h>\n#include <torch/csrc/stable/tensor.h>\n");
  t.write("csrc/through_header.hip", "#include \"mixed.h\"\n");
  ProjectBuild h = t.project({t.unit("extension a", "cxx", {"csrc/through_header.hip"}),
                              t.unit("extension b", "cxx", {"csrc/stable_ops.cpp"})});
  mark_legacy_by_design(h, "linux");
  EXPECT_TRUE(h.configurations[0].stable_expected);
  EXPECT_TRUE(h.facts.empty());
}

// The same legacy sources, built with TORCH_TARGET_VERSION or
// TORCH_STABLE_ONLY: the build targets the stable ABI, so they are linted.
TEST(LegacyByDesign, AUnitBuiltForTheStableAbiIsLintedWhateverItIncludes) {
  Tree t;
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"c++", "-DTORCH_TARGET_VERSION=0x020a000000000000", "-DPy_LIMITED_API=0x03090000"},
        std::vector<std::string>{"nvcc", "-D", "TORCH_STABLE_ONLY"}}) {
    BuildConfiguration legacy = t.unit("extension a", "cxx", {"csrc/legacy_ops.cpp"});
    legacy.arguments = flags;
    ProjectBuild b = t.project({legacy, t.unit("extension b", "cxx", {"csrc/stable_ops.cpp"})});
    mark_legacy_by_design(b, "linux");
    EXPECT_TRUE(b.configurations[0].stable_expected) << flags[1];
    EXPECT_TRUE(b.facts.empty()) << flags[1];
  }
  // A limited Python API alone is no stable-ABI build; nor is a macro that
  // merely starts with the name.
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"c++", "-DPy_LIMITED_API=0x03090000"},
        std::vector<std::string>{"c++", "-DTORCH_TARGET_VERSION_UNUSED=1"}}) {
    BuildConfiguration legacy = t.unit("extension a", "cxx", {"csrc/legacy_ops.cpp"});
    legacy.arguments = flags;
    ProjectBuild b = t.project({legacy, t.unit("extension b", "cxx", {"csrc/stable_ops.cpp"})});
    mark_legacy_by_design(b, "linux");
    EXPECT_FALSE(b.configurations[0].stable_expected) << flags[1];
    ASSERT_EQ(b.facts.size(), 1u) << flags[1];
  }
  // A legacy unit next to one whose only stable evidence is its flags is
  // still legacy by design: the other unit is the port.
  BuildConfiguration flagged = t.unit("extension b", "cxx", {"csrc/plain.cpp"});
  flagged.arguments = {"c++", "-DTORCH_TARGET_VERSION=0x020a000000000000"};
  ProjectBuild f = t.project({t.unit("extension a", "cxx", {"csrc/legacy_ops.cpp"}), flagged});
  mark_legacy_by_design(f, "linux");
  EXPECT_FALSE(f.configurations[0].stable_expected);
  EXPECT_TRUE(f.configurations[1].stable_expected);
}

}  // namespace
}  // namespace torchabi::inputs
