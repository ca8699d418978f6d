#include <map>
#include <algorithm>
// kernel-builder's build.toml read as data: components, sources, flags and
// the stable-abi release per backend.
#include <filesystem>

#include <gtest/gtest.h>

#include "temp_tree.h"

#include "common/input_error.h"
#include "inputs/project/build_toml.h"
#include "inputs/project/project_build.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/projects/kernel_builder";

using TempDir = test::TempTree;

const KernelComponent& component(const BuildToml& b, const std::string& name) {
  for (const auto& c : b.components)
    if (c.name == name) return c;
  throw std::runtime_error("no component " + name);
}

TEST(BuildToml, TheSampleHasItsBindingKernelsAndRelease) {
  BuildToml b = read_build_toml(kSample + "/build.toml");
  EXPECT_EQ(b.name, "kb-sample");
  EXPECT_EQ(b.backends, (std::vector<std::string>{"cpu", "cuda", "metal"}));
  EXPECT_EQ(b.stable_abi, (std::map<std::string, std::string>{{"*", "2.9"}}));
  EXPECT_EQ(b.stable_abi_line, 14);
  ASSERT_EQ(b.components.size(), 4u);
  const auto& binding = component(b, "torch");
  EXPECT_EQ(binding.backend, "");
  // Headers are listed in src but not compiled.
  EXPECT_EQ(binding.sources, (std::vector<std::string>{kSample + "/torch-ext/torch_binding.cpp"}));
  EXPECT_EQ(binding.include_dirs, (std::vector<std::string>{kSample + "/include"}));
  const auto& cpu = component(b, "scale_cpu");
  EXPECT_EQ(cpu.backend, "cpu");
  EXPECT_EQ(cpu.cxx_flags, (std::vector<std::string>{"-DKB_SAMPLE_VECTOR_WIDTH=8"}));
  const auto& cuda = component(b, "scale_cuda");
  EXPECT_EQ(cuda.sources, (std::vector<std::string>{kSample + "/scale_cuda/scale.cu"}));
  EXPECT_EQ(cuda.cuda_flags, (std::vector<std::string>{"--use_fast_math"}));
  EXPECT_TRUE(component(b, "scale_metal").sources.empty());  // .mm and .metal need Apple's compilers
  EXPECT_TRUE(b.notes.empty());
}

TEST(BuildToml, TargetVersionMacroIsMajorMinorShifted) {
  EXPECT_EQ(target_version_macro("2.9"), "0x0209000000000000");
  EXPECT_EQ(target_version_macro("2.11"), "0x020B000000000000");
  EXPECT_EQ(target_version_macro("3.0"), "0x0300000000000000");
  EXPECT_EQ(target_version_macro("2"), "");
  EXPECT_EQ(target_version_macro("2.x"), "");
  EXPECT_EQ(target_version_macro("2.9.1"), "");
  EXPECT_EQ(target_version_macro("2.256"), "");
}

TEST(BuildToml, TheBindingIsBuiltOncePerBackendWithItsMacroAndRelease) {
  TempDir d;
  const std::string file = d.write("build.toml",
                                   "[general]\nname = \"k\"\nbackends = [\"cpu\", \"cuda\"]\n"
                                   "[torch]\nsrc = [\"b.cpp\"]\nstable-abi = { cuda = \"2.11\", cpu = \"2.10\" }\n"
                                   "[kernel.a]\nbackend = \"cuda\"\nsrc = [\"a.cu\"]\ndepends = [\"torch\"]\n"
                                   "[kernel.c]\nbackend = \"cpu\"\nsrc = [\"c.cpp\"]\ndepends = [\"torch\"]\n");
  for (const char* src : {"b.cpp", "a.cu", "c.cpp"}) d.write(src, "");
  TorchLocation torch;
  ProjectBuild p = read_project_build(file, torch);
  // b.cpp twice (cpu, cuda), a.cu, c.cpp.
  ASSERT_EQ(p.db.commands.size(), 4u);
  auto flags_of = [&](const std::string& name, const std::string& macro) {
    for (const auto& c : p.db.commands)
      if (fs::path(c.file).filename() == name &&
          std::find(c.arguments.begin(), c.arguments.end(), "-D" + macro) != c.arguments.end()) {
        for (const auto& a : c.arguments)
          if (a.starts_with("-DTORCH_TARGET_VERSION=")) return a.substr(23) + " " + c.label;
        return "none " + c.label;
      }
    return std::string("not built");
  };
  EXPECT_EQ(flags_of("a.cu", "CUDA_KERNEL"), "0x020B000000000000 kernel a (cuda, nvcc)");
  EXPECT_EQ(flags_of("c.cpp", "CPU_KERNEL"), "0x020A000000000000 kernel c (cpu)");
  EXPECT_EQ(flags_of("b.cpp", "CUDA_KERNEL"), "0x020B000000000000 torch binding (cuda)");
  EXPECT_EQ(flags_of("b.cpp", "CPU_KERNEL"), "0x020A000000000000 torch binding (cpu)");
}

TEST(BuildToml, BackendsStableAbiDoesNotListAreLegacyAndNotLinted) {
  TempDir d;
  const std::string file = d.write("build.toml",
                                   "[general]\nname = \"k\"\nbackends = [\"cpu\", \"cuda\", \"metal\"]\n"
                                   "[torch]\nsrc = [\"b.cpp\"]\nstable-abi = { cuda = \"2.10\" }\n"
                                   "[kernel.c]\nbackend = \"cpu\"\nsrc = [\"c.cpp\"]\ndepends = [\"torch\"]\n");
  for (const char* src : {"b.cpp", "c.cpp"}) d.write(src, "");
  TorchLocation torch;
  ProjectBuild p = read_project_build(file, torch);
  // The binding in its stable configuration, and in the legacy ones for
  // reference only (so its legacy #else is not "inactive"); kernel c not at all.
  ASSERT_EQ(p.db.commands.size(), 3u);
  std::map<std::string, const CompileCommand*> by_label;
  for (const auto& c : p.db.commands) by_label[c.label] = &c;
  ASSERT_EQ(by_label.size(), 3u);
  EXPECT_FALSE(by_label.at("torch binding (cuda)")->reference_only);
  EXPECT_TRUE(by_label.at("torch binding (cpu)")->reference_only);
  EXPECT_TRUE(by_label.at("torch binding (metal)")->reference_only);
  const auto& cuda_args = by_label.at("torch binding (cuda)")->arguments;
  EXPECT_NE(std::find(cuda_args.begin(), cuda_args.end(), "-DCUDA_KERNEL"), cuda_args.end());
  // The legacy configurations are kept (for the report), not linted.
  size_t legacy = 0;
  for (const auto& c : p.configurations) legacy += !c.stable_expected;
  EXPECT_EQ(legacy, 3u);  // binding on cpu and metal, kernel c
  bool said = false;
  for (const auto& [k, v] : p.facts) said |= k == "not stable" && v.starts_with("cpu, metal:");
  EXPECT_TRUE(said);
}

TEST(BuildToml, KernelsBeforeV3HaveALanguageNotABackend) {
  TempDir d;
  const std::string file = d.write("build.toml",
                                   "[general]\nname = \"old\"\n[torch]\nsrc = [\"t.cpp\"]\n"
                                   "[kernel.k]\ncuda-capabilities = [\"8.0\"]\nsrc = [\"k.cu\"]\ndepends = [\"torch\"]\n"
                                   "[kernel.m]\nlanguage = \"metal\"\nsrc = [\"m.mm\"]\ndepends = [\"torch\"]\n");
  BuildToml b = read_build_toml(file);
  EXPECT_EQ(component(b, "k").backend, "cuda");
  EXPECT_EQ(component(b, "m").backend, "metal");
  EXPECT_EQ(b.backends, (std::vector<std::string>{"cuda", "metal"}));
  EXPECT_TRUE(b.stable_abi.empty());
}

TEST(BuildToml, UnreadableValuesAreNotesWithTheirLine) {
  TempDir d;
  const std::string file = d.write("build.toml", "[general]\nname = \"k\"\n[torch]\nsrc = \"t.cpp\"\n"
                                                 "stable-abi = \"two.nine\"\n");
  BuildToml b = read_build_toml(file);
  ASSERT_EQ(b.notes.size(), 2u);
  EXPECT_EQ(b.notes[0].line, 4);
  EXPECT_NE(b.notes[0].message.find("src"), std::string::npos);
  EXPECT_EQ(b.notes[1].line, 5);
  EXPECT_NE(b.notes[1].message.find("TORCH_TARGET_VERSION is left undefined"), std::string::npos);
}

TEST(BuildToml, BadFilesThrowNamingTheFile) {
  TempDir d;
  const std::string broken = d.write("a/build.toml", "[general\nname = 1\n");
  try {
    read_build_toml(broken);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), broken);
    EXPECT_NE(std::string(e.what()).find("line 1"), std::string::npos) << e.what();
  }
  const std::string other = d.write("b/build.toml", "[package]\nname = \"not kernel-builder\"\n");
  EXPECT_THROW(read_build_toml(other), InputError);
  EXPECT_THROW(read_build_toml((d.path / "missing.toml").string()), InputError);
}

TEST(BuildToml, BuildTomlIsTheBuildDescriptionBeforeSetupPy) {
  TempDir d;
  d.write("setup.py", "");
  d.write("build.toml", "[general]\nname = \"k\"\n");
  EXPECT_EQ(find_build_description(d.path.string()), (d.path / "build.toml").string());
}

}  // namespace
}  // namespace torchabi::inputs
