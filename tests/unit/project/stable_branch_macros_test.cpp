// Stable code behind a switch of the project's own that the build does not
// define (stable_branch_macros.h): fires / doesn't.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "inputs/project/stable_branch_macros.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

class Sources {
public:
  Sources() : dir_(fs::temp_directory_path() / ("stable_branch_test." + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~Sources() { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  ProjectBuild build(const std::vector<std::string>& sources, const std::vector<std::string>& args) const {
    ProjectBuild b;
    BuildConfiguration c;
    c.unit = "extension sw._C";
    c.compiler = "cxx";
    c.platform = "linux";
    c.sources = sources;
    c.arguments = {"c++"};
    c.arguments.insert(c.arguments.end(), args.begin(), args.end());
    b.configurations.push_back(c);
    return b;
  }

private:
  fs::path dir_;
};

const char* kSwitchedHeader =
    "#pragma once\n"
    "#ifdef SW_STABLE_API\n"
    "#include <torch/csrc/stable/library.h>\n"
    "#else\n"
    "#include <torch/library.h>\n"
    "#endif\n";

TEST(StableBranchMacros, AStableBranchUnderAnUndefinedSwitchIsNamed) {
  Sources s;
  const std::string header = s.write("ops.h", kSwitchedHeader);
  const std::string source = s.write("ops.cpp", "#include \"ops.h\"\n");
  ProjectBuild b = s.build({source}, {"-O2"});
  note_stable_code_behind_undefined_macros(b, "linux");
  ASSERT_EQ(b.notes.size(), 1u);
  EXPECT_EQ(b.notes[0].file, header);
  EXPECT_EQ(b.notes[0].message,
            "its stable-ABI includes are under `SW_STABLE_API`, which the build does not define: the code without it "
            "is what the build compiles, and what was analysed");
  EXPECT_EQ(b.notes[0].rule, "project-stable-code-switched-off");
  EXPECT_NE(b.notes[0].help.find("`torchabi check -D SW_STABLE_API DIR`"), std::string::npos);
}

TEST(StableBranchMacros, TheElseOfAnIfndefAndAnIfDefinedAreSwitchesToo) {
  Sources s;
  const std::string a = s.write("a.cpp",
                                "#ifndef SW_CLASSIC\n#include <torch/extension.h>\n#else\n"
                                "#include <torch/headeronly/util/Half.h>\n#endif\n");
  const std::string c = s.write("c.cpp", "#if defined(SW_STABLE)\n#include <torch/csrc/stable/tensor.h>\n#endif\n");
  ProjectBuild b = s.build({a, c}, {});
  note_stable_code_behind_undefined_macros(b, "linux");
  ASSERT_EQ(b.notes.size(), 2u);
  EXPECT_NE(b.notes[0].message.find("`SW_CLASSIC`"), std::string::npos);
  EXPECT_NE(b.notes[1].message.find("`SW_STABLE`"), std::string::npos);
}

TEST(StableBranchMacros, ASwitchTheBuildDefinesOrTheCodeDefinesIsNotNamed) {
  Sources s;
  s.write("ops.h", kSwitchedHeader);
  const std::string source = s.write("ops.cpp", "#include \"ops.h\"\n");
  for (const auto& args : {std::vector<std::string>{"-DSW_STABLE_API"}, {"-DSW_STABLE_API=1"}, {"-D", "SW_STABLE_API"}}) {
    ProjectBuild b = s.build({source}, args);
    note_stable_code_behind_undefined_macros(b, "linux");
    EXPECT_TRUE(b.notes.empty()) << args.back();
  }
  const std::string defined = s.write("defined.cpp", "#define SW_STABLE_API 1\n#include \"ops.h\"\n");
  ProjectBuild b = s.build({defined}, {});
  note_stable_code_behind_undefined_macros(b, "linux");
  EXPECT_TRUE(b.notes.empty());
}

TEST(StableBranchMacros, GuardsAndSwitchesNotTheProjectsOwnAreNotNamed) {
  Sources s;
  const std::string guarded = s.write("guarded.h",
                                      "#ifndef GUARDED_H\n#define GUARDED_H\n#include <torch/csrc/stable/library.h>\n"
                                      "#endif\n");
  const std::string cuda = s.write("cuda.cpp",
                                   "#include \"guarded.h\"\n#ifdef USE_CUDA\n#include <torch/csrc/stable/accelerator.h>\n"
                                   "#endif\n#ifdef __CUDACC__\n#include <torch/headeronly/macros/Macros.h>\n#endif\n"
                                   "#if TORCH_VERSION_MAJOR >= 2\n#include <torch/csrc/stable/ops.h>\n#endif\n");
  ProjectBuild b = s.build({cuda}, {});
  note_stable_code_behind_undefined_macros(b, "linux");
  EXPECT_TRUE(b.notes.empty()) << b.notes.front().message;
  (void)guarded;
}

}  // namespace
}  // namespace torchabi::inputs
