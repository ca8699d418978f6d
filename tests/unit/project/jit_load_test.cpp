// Extensions built just-in-time with torch.utils.cpp_extension.load() /
// load_inline(): the calls found under each import form, their arguments as
// far as they are literal (a note, never an absence, for the rest), and the
// commands torch's JIT build runs for them.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/cuda_installation.h"
#include "inputs/project/jit_load.h"
#include "inputs/project/project_build.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/projects/jit_load";

struct TempDir {
  fs::path dir;
  TempDir() {
    static int n = 0;
    dir = fs::temp_directory_path() / ("torchabi-jit-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::create_directories(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string write(const std::string& rel, const std::string& text) const {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
    return (dir / rel).string();
  }
  std::string path(const std::string& rel) const { return (dir / rel).string(); }
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool has_note(const JitLoads& l, int line, const std::string& part) {
  for (const auto& n : l.notes)
    if (n.line == line && n.message.find(part) != std::string::npos) return true;
  return false;
}

TEST(JitLoad, TheSampleIsReadWithItsFlagsPerCompiler) {
  const std::string file = kSample + "/jit_sample/ops.py";
  EXPECT_EQ(find_jit_load_files(kSample), (std::vector<std::string>{file}));
  JitLoads l = read_jit_loads(file, kSample, "");
  EXPECT_TRUE(l.notes.empty()) << l.notes[0].message;
  ASSERT_EQ(l.loads.size(), 1u);
  const JitLoad& j = l.loads[0];
  EXPECT_EQ(j.function, "load");
  EXPECT_EQ(j.ext.name, "jit_sample_ops");
  EXPECT_EQ(j.ext.line, 12);
  EXPECT_TRUE(j.ext.cuda);  // a .cu source, with_cuda not given
  EXPECT_FALSE(j.with_cuda_given);
  EXPECT_EQ(j.ext.sources, (std::vector<std::string>{kSample + "/jit_sample/csrc/ops.cpp",
                                                     kSample + "/jit_sample/csrc/scale.cu"}));
  EXPECT_EQ(j.ext.include_dirs, (std::vector<std::string>{kSample + "/jit_sample/include"}));
  EXPECT_EQ(j.ext.cxx_args, (std::vector<std::string>{"-DTORCH_TARGET_VERSION=0x020a000000000000", "-O3"}));
  EXPECT_EQ(j.ext.nvcc_args,
            (std::vector<std::string>{"-DTORCH_TARGET_VERSION=0x0209000000000000", "-O3", "--use_fast_math"}));

  TorchLocation torch;
  torch.include_dirs = {"/t/include", "/py/include"};
  torch.std_flag = "-std=c++20";
  const CompileCommand cxx = jit_load_command(j, j.ext.sources[0], kSample, torch);
  std::vector<std::string> want = {"c++", "-DTORCH_EXTENSION_NAME=jit_sample_ops", "-DTORCH_API_INCLUDE_EXTENSION_H",
                                   "-I" + kSample + "/jit_sample/include", "-isystem", "/t/include", "-isystem",
                                   "/py/include"};
  // With CUDA sources the host source gets CUDA's headers too (this machine's, if any).
  if (!host_cuda_include_dir().empty()) want.insert(want.end(), {"-isystem", host_cuda_include_dir()});
  want.insert(want.end(), {"-fPIC", "-std=c++20", "-DTORCH_TARGET_VERSION=0x020a000000000000", "-O3", "-c",
                           j.ext.sources[0]});
  EXPECT_EQ(cxx.arguments, want);
  const CompileCommand nvcc = jit_load_command(j, j.ext.sources[1], kSample, torch);
  EXPECT_EQ(nvcc.arguments,
            (std::vector<std::string>{"nvcc", "-DTORCH_EXTENSION_NAME=jit_sample_ops", "-DTORCH_API_INCLUDE_EXTENSION_H",
                                      "-I" + kSample + "/jit_sample/include", "-isystem", "/t/include", "-isystem",
                                      "/py/include", "--compiler-options", "-fPIC",
                                      "-DTORCH_TARGET_VERSION=0x0209000000000000", "-O3", "--use_fast_math",
                                      "-std=c++20", "-c", j.ext.sources[1]}));
}

TEST(JitLoad, EveryImportFormOfTorchsLoadAndNothingElse) {
  TempDir t;
  t.write("a.cpp", "int a;\n");
  struct Case {
    std::string text;
    size_t calls;
  } cases[] = {
      {"from torch.utils.cpp_extension import load\nm = load('x', ['a.cpp'])\n", 1},
      {"from torch.utils.cpp_extension import load as jit\nm = jit('x', ['a.cpp'])\n", 1},
      {"from torch.utils.cpp_extension import (\n    CUDA_HOME,\n    load_inline as li,\n    load,\n)\n"
       "m = load('x', ['a.cpp'])\n",
       1},
      {"import torch.utils.cpp_extension as ce\nm = ce.load('x', ['a.cpp'])\n", 1},
      {"from torch.utils import cpp_extension\nm = cpp_extension.load('x', ['a.cpp'])\n", 1},
      {"from torch.utils import cpp_extension as C\nm = C.load(name='x', sources=['a.cpp'])\n", 1},
      {"import torch\nm = torch.utils.cpp_extension.load('x', ['a.cpp'])\n", 1},
      {"import torch.utils.cpp_extension\nm = torch.utils.cpp_extension.load('x', ['a.cpp'])\n", 1},
      {"from torch.utils.cpp_extension import *\nm = load('x', ['a.cpp'])\n", 1},
      {"def build():\n    try:\n        from torch.utils.cpp_extension import load\n    except ImportError:\n"
       "        return None\n    return load('x', ['a.cpp'])\n",
       1},
      // Other functions named load: not torch's.
      {"import json, torch\nfrom torch.utils import cpp_extension\nd = json.load(open('a'))\nw = torch.load('w.pt')\n", 0},
      {"from torch.utils.cpp_extension import CUDA_HOME\nfrom mylib import load\nm = load('x', ['a.cpp'])\n", 0},
      {"import torch.utils.cpp_extension as ce\nclass A:\n    def load(self):\n        return self.load()\n", 0},
      {"\"\"\"Docs:\nfrom torch.utils.cpp_extension import load\n\"\"\"\nimport torch.utils.cpp_extension\n"
       "m = load('x', ['a.cpp'])\n",
       0},
  };
  for (const auto& c : cases) {
    const std::string f = t.write("mod.py", c.text);
    JitLoads l = read_jit_loads(f, t.dir.string(), "");
    EXPECT_EQ(l.loads.size(), c.calls) << c.text;
    EXPECT_EQ(find_jit_load_files(t.dir.string()).size(), c.calls) << c.text;
    if (c.calls && !l.loads.empty()) {
      EXPECT_EQ(l.loads[0].ext.sources, (std::vector<std::string>{t.path("a.cpp")})) << c.text;
    }
  }
}

TEST(JitLoad, UnresolvedValuesAreNotesNotAbsences) {
  TempDir t;
  t.write("csrc/a.cpp", "int a;\n");
  const std::string f = t.write("mod.py",
                                "import os\n"
                                "from torch.utils.cpp_extension import load\n"
                                "def flags():\n"
                                "    return ['-DX']\n"
                                "def build(name, cuda):\n"
                                "    return load(name=name,\n"
                                "                sources=['csrc/a.cpp', os.environ['EXTRA']],\n"
                                "                extra_cflags=flags() + extra(),\n"
                                "                extra_cuda_cflags=['-O3'] + [f for f in extra()],\n"
                                "                with_cuda=cuda,\n"
                                "                is_standalone=False)\n"
                                "m = load('y', [f'csrc/{x}.cpp' for x in os.listdir('csrc')], **options)\n"
                                "n = load('z', 'csrc/missing.cpp')\n");
  JitLoads l = read_jit_loads(f, t.dir.string(), "");
  ASSERT_EQ(l.loads.size(), 3u);
  const JitLoad& a = l.loads[0];
  EXPECT_EQ(a.ext.name, "");
  EXPECT_TRUE(has_note(l, 6, "the name of the load() extension")) << l.notes[0].message;
  EXPECT_EQ(a.ext.sources, (std::vector<std::string>{t.path("csrc/a.cpp")}));
  EXPECT_TRUE(has_note(l, 7, "an entry of the sources"));
  EXPECT_TRUE(a.ext.cxx_args.empty());
  EXPECT_TRUE(has_note(l, 8, "extra_cflags of load()"));
  EXPECT_TRUE(has_note(l, 9, "extra_cuda_cflags of load()"));
  EXPECT_TRUE(has_note(l, 10, "with_cuda of load()"));
  EXPECT_FALSE(a.with_cuda_given);
  EXPECT_FALSE(a.ext.cuda);  // torch's default: no .cu source
  // Unknown flags are marked per compiler, so that findings resting on them are notes.
  EXPECT_NE(a.ext.unresolved_cxx.find("the name of the load() extension"), std::string::npos) << a.ext.unresolved_cxx;
  EXPECT_NE(a.ext.unresolved_nvcc.find("the name of the load() extension"), std::string::npos);
  EXPECT_TRUE(l.loads[2].ext.unresolved_cxx.empty()) << l.loads[2].ext.unresolved_cxx;  // a missing source is no flag
  // A comprehension and a ** unpack.
  EXPECT_TRUE(l.loads[1].ext.sources.empty());
  EXPECT_TRUE(has_note(l, 12, "the sources of load('y')"));
  EXPECT_TRUE(has_note(l, 12, "unpacks with * or **"));
  // A path that does not exist from the project or the module: said, left out.
  EXPECT_TRUE(l.loads[2].ext.sources.empty());
  EXPECT_TRUE(has_note(l, 13, "'csrc/missing.cpp' is relative to the working directory"));
}

TEST(JitLoad, AnUnknownFlagListMarksOnlyItsCompiler) {
  TempDir t;
  t.write("a.cpp", "int a;\n");
  t.write("k.cu", "__global__ void k() {}\n");
  const std::string f = t.write("mod.py",
                                "import os\n"
                                "from torch.utils.cpp_extension import load\n"
                                "m = load('m', ['a.cpp', 'k.cu'], extra_cflags=['-O3'],\n"
                                "         extra_cuda_cflags=os.environ['NVCC_FLAGS'].split())\n");
  JitLoads l = read_jit_loads(f, t.dir.string(), "");
  ASSERT_EQ(l.loads.size(), 1u);
  EXPECT_TRUE(l.loads[0].ext.unresolved_cxx.empty()) << l.loads[0].ext.unresolved_cxx;
  EXPECT_NE(l.loads[0].ext.unresolved_nvcc.find("extra_cuda_cflags of load('m')"), std::string::npos);
  TorchLocation torch;
  ProjectBuild b = read_jit_load_build(t.dir.string(), {f}, torch, {});
  ASSERT_EQ(b.configurations.size(), 2u);
  for (const auto& c : b.configurations) EXPECT_EQ(c.unresolved.empty(), c.compiler == "cxx") << c.label();
}

TEST(JitLoad, WithCudaStandaloneAndPositionalArguments) {
  TempDir t;
  t.write("k.cu", "__global__ void k() {}\n");
  t.write("h.cuh", "#pragma once\n");
  t.write("a.cpp", "int a;\n");
  const std::string f = t.write("mod.py",
                                "from torch.utils.cpp_extension import load\n"
                                "a = load('a', ['a.cpp', 'k.cu'], ['-DA'], ['-DB'], None, None, ['inc'],\n"
                                "         None, False, False)\n"
                                "b = load('b', ['a.cpp', 'h.cuh'], is_standalone=True)\n"
                                "c = load('c', ['a.cpp'], with_cuda=True)\n");
  fs::create_directories(t.dir / "inc");
  JitLoads l = read_jit_loads(f, t.dir.string(), "");
  ASSERT_EQ(l.loads.size(), 3u);
  EXPECT_TRUE(l.notes.empty()) << l.notes[0].message;
  for (const auto& j : l.loads) EXPECT_TRUE(j.ext.unresolved_cxx.empty() && j.ext.unresolved_nvcc.empty());
  TorchLocation torch;
  torch.std_flag = "-std=c++20";
  // with_cuda=False: the .cu file goes to the C++ compiler, as torch's rule does.
  EXPECT_FALSE(l.loads[0].ext.cuda);
  EXPECT_TRUE(l.loads[0].with_cuda_given);
  EXPECT_EQ(l.loads[0].ext.cxx_args, (std::vector<std::string>{"-DA"}));
  EXPECT_EQ(l.loads[0].ext.nvcc_args, (std::vector<std::string>{"-DB"}));
  EXPECT_EQ(l.loads[0].ext.include_dirs, (std::vector<std::string>{t.path("inc")}));
  EXPECT_EQ(jit_load_command(l.loads[0], t.path("k.cu"), t.dir.string(), torch).arguments[0], "c++");
  // A .cuh source makes it a CUDA build; standalone: no extension macros.
  EXPECT_TRUE(l.loads[1].ext.cuda);
  EXPECT_TRUE(l.loads[1].standalone);
  const auto cuh = jit_load_command(l.loads[1], t.path("h.cuh"), t.dir.string(), torch).arguments;
  EXPECT_EQ(cuh, (std::vector<std::string>{"nvcc", "--compiler-options", "-fPIC", "-std=c++20", "-c", t.path("h.cuh")}));
  EXPECT_TRUE(l.loads[2].ext.cuda);
  EXPECT_EQ(jit_load_command(l.loads[2], t.path("a.cpp"), t.dir.string(), torch).arguments[0], "c++");
}

TEST(JitLoad, LoadInlineLiteralSourcesAreWrittenAsTorchWritesThem) {
  TempDir t;
  const std::string f = t.write("mod.py",
                                "from torch.utils.cpp_extension import load_inline\n"
                                "CPP = 'int twice(int x);'\n"
                                "m = load_inline(name='inl', cpp_sources=[CPP], cuda_sources='__global__ void k() {}',\n"
                                "                functions=['twice'], extra_cuda_cflags=['-O2'])\n"
                                "n = load_inline('plain', 'int f();', no_implicit_headers=True,\n"
                                "                functions={'f': 'docs'}, with_pytorch_error_handling=False)\n"
                                "o = load_inline('computed', open('x.cpp').read())\n");
  const std::string out = t.path("scratch");
  JitLoads l = read_jit_loads(f, t.dir.string(), out);
  ASSERT_EQ(l.loads.size(), 2u);
  const JitLoad& a = l.loads[0];
  EXPECT_TRUE(a.inline_written);
  EXPECT_EQ(a.ext.sources, (std::vector<std::string>{out + "/inl/main.cpp", out + "/inl/cuda.cu"}));
  EXPECT_TRUE(a.ext.cuda);
  EXPECT_EQ(read(out + "/inl/main.cpp"),
            "#include <torch/extension.h>\nint twice(int x);\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
            "m.def(\"twice\", torch::wrap_pybind_function(twice), \"twice\");\n}");
  EXPECT_EQ(read(out + "/inl/cuda.cu"),
            "#include <torch/types.h>\n#include <cuda.h>\n#include <cuda_runtime.h>\n__global__ void k() {}");
  const JitLoad& b = l.loads[1];
  EXPECT_FALSE(b.ext.cuda);
  EXPECT_EQ(b.ext.sources, (std::vector<std::string>{out + "/plain/main.cpp"}));
  EXPECT_EQ(read(out + "/plain/main.cpp"),
            "int f();\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\nm.def(\"f\", f, \"docs\");\n}");
  // Code computed at run time: a note, not linted.
  EXPECT_TRUE(has_note(l, 7, "the C++ sources of load_inline('computed')"));
  // Without a scratch directory the strings are a note too.
  JitLoads none = read_jit_loads(f, t.dir.string(), "");
  EXPECT_TRUE(none.loads.empty());
  EXPECT_TRUE(has_note(none, 3, "are strings: not linted here"));
}

TEST(JitLoad, TheWalkSkipsVenvsBuildTreesAndThirdPartyCode) {
  TempDir t;
  const std::string call = "from torch.utils.cpp_extension import load\nm = load('x', ['a.cpp'])\n";
  t.write("pkg/node.py", call);
  for (const char* d : {".venv/lib/m.py", "build/lib/m.py", "dist/m.py", "env/site-packages/m.py",
                        "third_party/lib/tests/m.py", "sub/module/m.py", "myenv/m.py"})
    t.write(d, call);
  t.write("sub/module/.git", "gitdir: ../../.git/modules/sub\n");  // a submodule
  t.write("myenv/pyvenv.cfg", "home = /usr/bin\n");
  t.write("pkg/other.py", "import json\nx = json.load(open('f'))\n");
  EXPECT_EQ(find_jit_load_files(t.dir.string()), (std::vector<std::string>{t.path("pkg/node.py")}));
}

TEST(JitLoad, FindBuildDescriptionAndTheProjectBuild) {
  TempDir t;
  t.write("csrc/a.cpp", "int a;\n");
  t.write("node/__init__.py",
          "import os\nfrom torch.utils.cpp_extension import load\n"
          "m = load('ext', [os.path.join(os.path.dirname(__file__), '..', 'csrc', 'a.cpp')], extra_cflags=['-DX'])\n");
  // No other build description: the directory itself.
  auto found = find_build_description(t.dir.string());
  ASSERT_TRUE(found);
  EXPECT_TRUE(fs::equivalent(*found, t.dir));
  TorchLocation torch;
  torch.include_dirs = {"/t/include"};
  torch.how = "test";
  ProjectBuild b = read_project_build(*found, torch, std::vector<std::string>{"EXTRA=1"});
  ASSERT_EQ(b.configurations.size(), 1u);
  const BuildConfiguration& c = b.configurations[0];
  EXPECT_EQ(c.unit, "extension ext");
  EXPECT_EQ(c.compiler, "cxx");
  EXPECT_EQ(c.method, "cpp_extension.load() read");
  EXPECT_EQ(c.file, t.path("node/__init__.py"));
  EXPECT_EQ(c.line, 3);
  EXPECT_EQ(c.sources, (std::vector<std::string>{t.path("csrc/a.cpp")}));
  EXPECT_EQ(b.build_file, t.path("node/__init__.py"));
  ASSERT_EQ(b.db.commands.size(), 1u);
  const auto& args = b.db.commands[0].arguments;
  EXPECT_NE(std::find(args.begin(), args.end(), "-DX"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "-DEXTRA=1"), args.end());
  EXPECT_EQ(b.db.commands[0].label, "extension ext (cxx)");
  // A pyproject.toml that declares nothing (a ComfyUI registry entry) gives way too.
  t.write("pyproject.toml", "[project]\nname = \"node\"\ndependencies = [\"torch>=2.10\"]\n");
  found = find_build_description(t.dir.string());
  ASSERT_TRUE(found);
  EXPECT_TRUE(fs::is_directory(*found));
  b = read_project_build(*found, torch, std::vector<std::string>{});
  EXPECT_EQ(b.configurations.size(), 1u);
  ASSERT_EQ(b.requirements.size(), 1u);
  EXPECT_EQ(b.requirements[0].text, "torch>=2.10");
  // So does a setup.py without CppExtension/CUDAExtension.
  t.write("setup.py", "from setuptools import setup\nsetup(name='node')\n");
  found = find_build_description(t.dir.string());
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, t.path("setup.py"));
  b = read_project_build(*found, torch, std::vector<std::string>{});
  ASSERT_EQ(b.configurations.size(), 1u);
  EXPECT_EQ(b.configurations[0].method, "cpp_extension.load() read");
}

TEST(JitLoad, AnUnparsableModuleWithALoadCallNamesItself) {
  TempDir t;
  const std::string f = t.write("m.py", "from torch.utils.cpp_extension import load\nm = load('x', ['a.cpp'\n");
  EXPECT_THROW(read_jit_loads(f, t.dir.string(), ""), InputError);
  TorchLocation torch;
  EXPECT_THROW(read_jit_load_build(t.dir.string(), {}, torch, {}), InputError);
  // Next to a readable module it is a note, and the other module's call counts.
  t.write("a.cpp", "int a;\n");
  t.write("n.py", "from torch.utils.cpp_extension import load\nm = load('y', ['a.cpp'])\n");
  ProjectBuild b = read_jit_load_build(t.dir.string(), {}, torch, {});
  ASSERT_EQ(b.configurations.size(), 1u);
  EXPECT_EQ(b.configurations[0].unit, "extension y");
  ASSERT_EQ(b.notes.size(), 1u);
  EXPECT_EQ(b.notes[0].file, f);
  EXPECT_NE(b.notes[0].message.find("its cpp_extension.load() calls are not read"), std::string::npos);
}

}  // namespace
}  // namespace torchabi::inputs
