// What a setup.py declares, read from the shipped sample and from small
// variants: every argument of CppExtension/CUDAExtension, and a note (file,
// line, how to pass it) for what is computed when the file runs.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/project/setup_py.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/projects/setuptools_cuda";

struct TempProject {
  fs::path dir = fs::temp_directory_path() / ("torchabi-setup-py-" + std::to_string(::getpid()));
  explicit TempProject(const std::string& setup) {
    fs::create_directories(dir);
    std::ofstream(dir / "setup.py") << setup;
  }
  ~TempProject() { fs::remove_all(dir); }
  std::string path() const { return (dir / "setup.py").string(); }
};

TEST(SetupPy, TheSampleCudaExtensionReadAsABuildWouldSeeIt) {
  SetupPy s = read_setup_py(kSample + "/setup.py");
  EXPECT_TRUE(s.notes.empty()) << s.notes[0].message;
  ASSERT_EQ(s.extensions.size(), 1u);
  const ExtensionSpec& e = s.extensions[0];
  EXPECT_EQ(e.name, "sample_cuda._C");
  EXPECT_TRUE(e.cuda);
  EXPECT_TRUE(e.py_limited_api);
  EXPECT_EQ(e.line, 22);
  EXPECT_EQ(e.sources, (std::vector<std::string>{kSample + "/csrc/ops.cpp", kSample + "/csrc/kernels/scale.cu"}));
  EXPECT_EQ(e.include_dirs, (std::vector<std::string>{kSample + "/include"}));
  using Macro = std::pair<std::string, std::optional<std::string>>;
  EXPECT_EQ(e.define_macros, (std::vector<Macro>{{"SAMPLE_WITH_CUDA", std::nullopt}, {"SAMPLE_ABI_LEVEL", "3"}}));
  EXPECT_EQ(e.cxx_args, (std::vector<std::string>{"-O3", "-DTORCH_TARGET_VERSION=0x0209000000000000", "-DSAMPLE_FAST_PATH=1"}));
  EXPECT_EQ(e.nvcc_args, (std::vector<std::string>{"-O3", "--use_fast_math", "-lineinfo",
                                                    "-DTORCH_TARGET_VERSION=0x0209000000000000", "-DSAMPLE_FAST_PATH=1"}));
}

TEST(SetupPy, PositionalArgumentsAndAFlatFlagList) {
  TempProject p("from torch.utils.cpp_extension import CppExtension\n"
                "ext = CppExtension('pkg.ops', ['a.cpp', 'sub/b.cpp'], extra_compile_args=['-O2', '-DFOO'])\n");
  SetupPy s = read_setup_py(p.path());
  ASSERT_EQ(s.extensions.size(), 1u);
  EXPECT_FALSE(s.extensions[0].cuda);
  EXPECT_EQ(s.extensions[0].name, "pkg.ops");
  EXPECT_EQ(s.extensions[0].sources,
            (std::vector<std::string>{(p.dir / "a.cpp").string(), (p.dir / "sub/b.cpp").string()}));
  EXPECT_EQ(s.extensions[0].cxx_args, (std::vector<std::string>{"-O2", "-DFOO"}));
  EXPECT_TRUE(s.notes.empty());
}

TEST(SetupPy, ComputedValuesAreNotesNamingTheLineAndTheWayToPassThem) {
  TempProject p("import os\n"
                "from torch.utils.cpp_extension import CUDAExtension\n"
                "def arch_flags():\n"
                "    return detect_arch()\n"
                "ext = CUDAExtension(\n"
                "    name='x._C',\n"
                "    sources=['k.cu'],\n"
                "    define_macros=[('VERSION', os.environ['V'])],\n"
                "    extra_compile_args={'cxx': ['-O3'], 'nvcc': ['-O3'] + arch_flags()})\n");
  SetupPy s = read_setup_py(p.path());
  ASSERT_EQ(s.extensions.size(), 1u);
  EXPECT_EQ(s.extensions[0].cxx_args, (std::vector<std::string>{"-O3"}));
  EXPECT_TRUE(s.extensions[0].nvcc_args.empty());
  EXPECT_TRUE(s.extensions[0].define_macros.empty());
  ASSERT_EQ(s.notes.size(), 2u);
  EXPECT_EQ(s.notes[0].file, p.path());
  EXPECT_EQ(s.notes[0].line, 8);
  EXPECT_NE(s.notes[0].message.find("macro VERSION"), std::string::npos) << s.notes[0].message;
  EXPECT_NE(s.notes[0].message.find("-D NAME=VALUE"), std::string::npos) << s.notes[0].message;
  // Where the value is computed: in the function the call uses.
  EXPECT_EQ(s.notes[1].line, 4);
  EXPECT_NE(s.notes[1].message.find("nvcc"), std::string::npos) << s.notes[1].message;
  EXPECT_NE(s.notes[1].message.find("detect_arch"), std::string::npos) << s.notes[1].message;
  // os.environ was read as torchabi's run of the script sees it: said.
  ASSERT_EQ(s.given.size(), 1u);
  EXPECT_NE(s.given[0].find("environment"), std::string::npos) << s.given[0];
}

// Issue 49's example: the class is chosen by a condition the file decides
// when it runs. The call is read, as CUDAExtension (a build on a machine
// with CUDA), and a note says so.
TEST(SetupPy, AnExtensionClassChosenAtRunTimeIsReadAsTheCudaOne) {
  TempProject p("from torch.utils.cpp_extension import CppExtension, CUDAExtension\n"
                "try:\n"
                "    from torch.utils.cpp_extension import CUDA_HOME\n"
                "    _HAS_CUDA = CUDA_HOME is not None and detect()\n"
                "except ImportError:\n"
                "    _HAS_CUDA = False\n"
                "Extension = CUDAExtension if _HAS_CUDA else CppExtension\n"
                "_ext = Extension(name='pkg._C', sources=['a.cpp', 'k.cu'],\n"
                "                 extra_compile_args={'cxx': ['-O3'], 'nvcc': ['-O3']})\n");
  SetupPy s = read_setup_py(p.path());
  ASSERT_EQ(s.extensions.size(), 1u);
  const ExtensionSpec& e = s.extensions[0];
  EXPECT_EQ(e.name, "pkg._C");
  EXPECT_TRUE(e.cuda);
  EXPECT_EQ(e.sources, (std::vector<std::string>{(p.dir / "a.cpp").string(), (p.dir / "k.cu").string()}));
  EXPECT_EQ(e.nvcc_args, (std::vector<std::string>{"-O3"}));
  EXPECT_TRUE(e.unresolved_cxx.empty() && e.unresolved_nvcc.empty());
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_EQ(s.notes[0].line, 8);
  EXPECT_NE(s.notes[0].message.find("read as CUDAExtension"), std::string::npos) << s.notes[0].message;
  ASSERT_EQ(s.given.size(), 1u);
  EXPECT_NE(s.given[0].find("CUDA is available"), std::string::npos) << s.given[0];
}

TEST(SetupPy, UnreadableOrBrokenFilesAreInputErrorsNamingThem) {
  EXPECT_THROW(read_setup_py("/nonexistent/setup.py"), InputError);
  TempProject p("setup(ext_modules=[CppExtension('a', ['a.cpp']]\n");
  try {
    read_setup_py(p.path());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), p.path());
  }
}

}  // namespace
}  // namespace torchabi::inputs
