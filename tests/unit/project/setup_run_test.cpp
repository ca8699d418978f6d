// setup.py run under the recorder (setup_run.h): what running the script
// yields where reading it cannot (helpers, globs, os.walk, platform and CUDA
// branches), and that failures, hangs and writes stay in the temporary copy.
// The machine's /usr/bin/python3 runs the scripts with the stand-in
// cpp_extension, so the expectations do not depend on an installed torch.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/cuda_installation.h"
#include "inputs/project/project_build.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/setup_run.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

const std::string kProjects = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/projects";
const std::string kPython = "/usr/bin/python3";

std::string python_output(const std::string& code) {
  FILE* p = ::popen((kPython + " -c '" + code + "' 2>/dev/null").c_str(), "r");
  if (!p) return "";
  std::string out;
  char buf[512];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  if (::pclose(p) != 0) return "";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Python's include directory, as the recorder reports it; "" when the
// machine's python3 cannot run setup.py (no setuptools).
const std::string& python_include() {
  static const std::string inc =
      python_output("import setuptools, sysconfig; print(sysconfig.get_paths()[\"include\"])");
  return inc;
}

#define SKIP_WITHOUT_SETUPTOOLS()                                                          \
  if (python_include().empty()) GTEST_SKIP() << kPython << " cannot import setuptools"

TorchLocation standin_torch() {
  TorchLocation t;
  t.include_dirs = {"/t/include", "/t/include/torch/csrc/api/include"};
  t.std_flag = "-std=c++20";
  t.limited_api = "0x030A0000";
  t.how = "stand-in";
  return t;
}

// kPython with a `torch` package of the test's own on PYTHONPATH (a wrapper
// script): one that fails to import, so that the recorder uses its stand-in
// through read_project_build too, or a fake "real" torch.
class ShadowedPython {
public:
  ShadowedPython(const std::string& name, const std::map<std::string, std::string>& files)
      : dir_("/tmp/setup_run_test_" + name + "." + std::to_string(::getpid())) {
    for (const auto& [path, text] : files) {
      fs::create_directories((dir_ / "shadow" / path).parent_path());
      std::ofstream(dir_ / "shadow" / path) << text;
    }
    std::ofstream(dir_ / "python") << "#!/bin/sh\nPYTHONPATH=" << (dir_ / "shadow").string() << " exec " << kPython
                                   << " \"$@\"\n";
    // Readable by all: as root the script runs as nobody (environment/sandbox.h).
    fs::permissions(dir_ / "python", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                         fs::perms::others_read | fs::perms::others_exec);
  }
  ~ShadowedPython() { fs::remove_all(dir_); }
  std::string path() const { return (dir_ / "python").string(); }

private:
  fs::path dir_;
};

std::string python_without_torch() {
  static ShadowedPython p("no_torch", {{"torch/__init__.py", "raise ImportError('no torch in this test')\n"}});
  return p.path();
}

// A torch whose cpp_extension behaves as the real one does for a build
// script: CppExtension/CUDAExtension add its include paths (CUDA_HOME's for
// CUDA), and its defaults are in the file for read_cpp_extension_defaults.
std::string python_with_fake_torch() {
  static ShadowedPython p(
      "fake_torch",
      {{"torch/__init__.py", "__version__ = '2.14.1+fake'\nfrom . import version, cuda, utils\n"},
       {"torch/version.py", "cuda = None\nhip = None\n"},
       {"torch/__config__.py", "def parallel_info():\n    return 'ATen parallel backend: native thread pool\\n'\n"},
       {"torch/cuda.py", "def is_available():\n    return False\n"},
       {"torch/utils/__init__.py", ""},
       {"torch/utils/cpp_extension.py",
        "import os, setuptools\n"
        "from setuptools.command.build_ext import build_ext\n"
        "CUDA_HOME = None\nROCM_HOME = None\n"
        "min_supported_cpython = '0x030A0000'\n"
        "COMMON_FLAGS = ['-std=c++20']\n"
        "def include_paths(device_type='cpu'):\n"
        "    paths = ['/fake/torch/include', '/fake/torch/include/api']\n"
        "    if device_type == 'cuda':\n"
        "        paths.append(os.path.join(CUDA_HOME, 'include'))\n"
        "    return paths\n"
        "def CppExtension(name, sources, *args, **kwargs):\n"
        "    kwargs['include_dirs'] = kwargs.get('include_dirs', []) + include_paths()\n"
        "    return setuptools.Extension(name, sources, *args, **kwargs)\n"
        "def CUDAExtension(name, sources, *args, **kwargs):\n"
        "    kwargs['include_dirs'] = kwargs.get('include_dirs', []) + include_paths('cuda')\n"
        "    return setuptools.Extension(name, sources, *args, **kwargs)\n"
        "class BuildExtension(build_ext):\n"
        "    pass\n"}});
  return p.path();
}

ProjectOptions run_options(int timeout = 60) {
  ProjectOptions o;
  o.run_build = true;
  o.python = python_without_torch();
  o.timeout_seconds = timeout;
  return o;
}

const BuildConfiguration* find(const ProjectBuild& b, const std::string& unit, const std::string& compiler,
                               const std::string& platform) {
  for (const auto& c : b.configurations)
    if (c.unit == unit && c.compiler == compiler && c.platform == platform) return &c;
  return nullptr;
}

bool has(const Args& args, const std::string& a) { return std::find(args.begin(), args.end(), a) != args.end(); }

std::vector<std::string> facts(const ProjectBuild& b, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& [k, v] : b.facts)
    if (k == key) out.push_back(v);
  return out;
}

// Every file under `dir` with its contents: the tree, to compare before and after.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::string content = "(dir)";
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      content = ss.str();
    }
    out[e.path().lexically_relative(dir).string()] = content;
  }
  return out;
}

// A fresh $TMPDIR for one test: what the run leaves behind shows up there.
class ScratchTmp {
public:
  ScratchTmp() {
    old_ = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "";
    dir_ = fs::temp_directory_path() / ("setup_run_test." + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ::setenv("TMPDIR", dir_.c_str(), 1);
  }
  ~ScratchTmp() {
    if (old_.empty()) ::unsetenv("TMPDIR");
    else ::setenv("TMPDIR", old_.c_str(), 1);
    fs::remove_all(dir_);
  }
  bool empty() const { return fs::is_empty(dir_); }

private:
  std::string old_;
  fs::path dir_;
};

// A project of the test's own under the temporary directory: its files
// written on construction, all of it removed with it.
class TempProject {
public:
  TempProject(const std::string& name, const std::map<std::string, std::string>& files)
      : dir_(fs::temp_directory_path() / ("setup_run_test_" + name + "." + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    for (const auto& [rel, text] : files) write(rel, text);
  }
  ~TempProject() { fs::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((dir_ / rel).parent_path());
    std::ofstream(dir_ / rel) << text;
  }
  const fs::path& dir() const { return dir_; }
  std::string setup_py() const { return (dir_ / "setup.py").string(); }

private:
  fs::path dir_;
};

TEST(SetupRun, SourcesFromHelpersGlobsAndWalksInAFunctionSetupCalls) {
  SKIP_WITHOUT_SETUPTOOLS();
  const std::string dir = kProjects + "/setup_run_sources";
  SetupRunResult r = run_setup_py(dir + "/setup.py", standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(r.build) << r.failure;
  const ProjectBuild& b = *r.build;
  EXPECT_EQ(b.configurations.size(), 9u);  // 3 extensions x 3 platforms, C++ only
  const BuildConfiguration* ops = find(b, "extension sources_demo._ops", "cxx", "linux");
  ASSERT_TRUE(ops);
  EXPECT_EQ(ops->sources, (Args{dir + "/csrc/ops/add.cpp", dir + "/csrc/ops/binding.cpp", dir + "/csrc/ops/nested/mul.cpp"}));
  EXPECT_EQ(ops->file, dir + "/setup.py");
  EXPECT_EQ(ops->line, 32);
  EXPECT_EQ(ops->directory, dir);
  EXPECT_EQ(ops->arguments,
            (Args{"c++", "-I" + dir + "/csrc", "-I/t/include", "-I/t/include/torch/csrc/api/include",
                  "-I" + python_include(), "-O2", "-DTORCH_TARGET_VERSION=0x020a000000000000",
                  "-DTORCH_API_INCLUDE_EXTENSION_H", "-DTORCH_EXTENSION_NAME=_ops", "-std=c++20", "-fPIC"}));
  EXPECT_TRUE(ops->method.starts_with("setup.py run in CPython 3.")) << ops->method;
  EXPECT_TRUE(ops->method.ends_with(" (stand-in cpp_extension)")) << ops->method;
  const BuildConfiguration* kernels = find(b, "extension sources_demo._kernels", "cxx", "linux");
  ASSERT_TRUE(kernels);
  EXPECT_EQ(kernels->sources, (Args{dir + "/kernels/cpu/relu.cpp"}));
  EXPECT_EQ(kernels->line, 38);
  EXPECT_EQ(kernels->arguments,
            (Args{"c++", "-I/t/include", "-I/t/include/torch/csrc/api/include", "-I" + python_include(),
                  "-DTORCH_TARGET_VERSION=0x020a000000000000", "-DTORCH_API_INCLUDE_EXTENSION_H",
                  "-DTORCH_EXTENSION_NAME=_kernels", "-std=c++20", "-fPIC"}));
  const BuildConfiguration* plugins = find(b, "extension sources_demo._plugins", "cxx", "linux");
  ASSERT_TRUE(plugins);
  EXPECT_EQ(plugins->sources, (Args{dir + "/plugins/blur/blur.cpp"}));
  EXPECT_EQ(plugins->line, 43);
  ASSERT_EQ(b.requirements.size(), 1u);
  EXPECT_EQ(b.requirements[0].text, "torch>=2.10");
  EXPECT_EQ(b.requirements[0].file, dir + "/setup.py");
  EXPECT_EQ(b.requirements[0].line, 47);
  EXPECT_EQ(facts(b, "extension sources_demo._ops"), (Args{"CppExtension at setup.py line 32, 3 sources"}));
  // Nothing differs between the platforms here.
  EXPECT_TRUE(facts(b, "extension sources_demo._ops (cxx) on win32").empty());
}

// A setup.py in python/ whose sources are in ../csrc and whose submodule is
// in the repository's .gitmodules: the copy it runs in holds the repository
// around it (the nearest directory with .git; outside one, the directory
// above), so its glob finds the sources and its check the placeholder.
TEST(SetupRun, AScriptInASubdirectoryFindsTheSourcesAboveIt) {
  SKIP_WITHOUT_SETUPTOOLS();
  const fs::path repo = fs::temp_directory_path() / ("setup_run_test_repo." + std::to_string(::getpid())) / "reaches_up";
  ScratchTmp tmp;  // the runs' copies go here, and must be gone after
  fs::remove_all(repo.parent_path());
  fs::create_directories(repo);
  fs::copy(kProjects + "/setup_reaches_up", repo, fs::copy_options::recursive);
  const std::string script = (repo / "python" / "setup.py").string();
  const std::string r = repo.string();
  for (const bool git : {false, true}) {
    if (git) fs::create_directory(repo / ".git");
    SetupRunResult run = run_setup_py(script, standin_torch(), run_options(), RecorderTorch::StandIn);
    ASSERT_TRUE(run.build) << run.failure;
    const BuildConfiguration* c = find(*run.build, "extension reaches_up._C", "cxx", "linux");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->sources, (Args{r + "/csrc/binding.cpp", r + "/csrc/ops/add.cpp"})) << git;
    EXPECT_TRUE(has(c->arguments, "-I" + r + "/include")) << git;
    // Paths into the (absent) submodule name the project's, not the copy's.
    EXPECT_TRUE(has(c->arguments, "-I" + r + "/third_party/cutlass/include")) << git;
    EXPECT_EQ(c->directory, r + "/python");
    EXPECT_EQ(facts(*run.build, "given to setup.py: submodule"),
              (Args{"../third_party/cutlass (not checked out: an empty placeholder)"}));
  }
  // Nothing of the copies is left, and the repository is as it was.
  EXPECT_TRUE(tmp.empty());
  EXPECT_FALSE(fs::exists(repo / "python" / "build"));
  EXPECT_FALSE(fs::exists(repo / "third_party"));
  fs::remove_all(repo.parent_path());
}

// A script whose `..` leads above a copy of its directory alone (the
// directory above too large to copy) still names the project's paths.
TEST(SetupRun, PathsAboveTheCopyNameTheProjectsParent) {
  SKIP_WITHOUT_SETUPTOOLS();
  const TempProject p(
      "above",
      {{"big/data.h", ""},
       {"pkg/csrc/a.cpp", "int a;\n"},
       {"pkg/setup.py",
        "import os\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CppExtension\n"
        "HERE = os.path.dirname(os.path.abspath(__file__))\n"
        "INC = os.path.abspath(os.path.join(HERE, os.pardir, 'shared', 'include'))\n"
        "setup(name='above', ext_modules=[CppExtension('above._C', ['csrc/a.cpp'], include_dirs=[INC])])\n"}});
  // Over the 64 MB the directory above may hold (sparse: no disk used).
  fs::resize_file(p.dir() / "big" / "data.h", 65ull << 20);
  SetupRunResult run =
      run_setup_py((p.dir() / "pkg" / "setup.py").string(), standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(run.build) << run.failure;
  const BuildConfiguration* c = find(*run.build, "extension above._C", "cxx", "linux");
  ASSERT_TRUE(c);
  EXPECT_TRUE(has(c->arguments, "-I" + (p.dir() / "shared" / "include").string())) << c->arguments[1];
  EXPECT_TRUE(run.build->notes.empty());  // not a repository: nothing says the project extends there
}

// A setup.py that builds its stable extension only under CI_SWITCH_STABLE=1,
// which its CI's stable job sets: the stable build is the one analysed, on
// every platform, and the variable left unset is named.
TEST(SetupRun, SwitchesFromTheEnvironmentTakeTheValuesOfTheStableCiBuild) {
  SKIP_WITHOUT_SETUPTOOLS();
  const std::string dir = kProjects + "/setup_ci_switch";
  SetupRunResult r = run_setup_py(dir + "/setup.py", standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(r.build) << r.failure;
  const ProjectBuild& b = *r.build;
  for (const char* platform : {"linux", "darwin", "win32"}) {
    const BuildConfiguration* c = find(b, "extension ci_switch._C", "cxx", platform);
    ASSERT_TRUE(c) << platform;
    EXPECT_EQ(c->sources, (Args{dir + "/csrc/ops_stable.cpp"})) << platform;
    EXPECT_TRUE(has(c->arguments, "-DTORCH_TARGET_VERSION=0x020a000000000000")) << platform;
  }
  EXPECT_EQ(facts(b, "built as its CI builds it"),
            (Args{".github/workflows/wheels.yml, job stable, step 'Build stable wheel': CI_SWITCH_OPS=1 "
                  "CI_SWITCH_STABLE=1 (the build its defaults make does not target the stable ABI)"}));
  EXPECT_EQ(facts(b, "environment read by setup.py, unset"), (Args{"CI_SWITCH_DEBUG: its defaults were taken"}));
}

// Modules that build more with cpp_extension.load() beside a setup.py are
// named in a note (not analysed with its build); a load() that falls back to
// building the same sources is not.
TEST(SetupRun, LoadCallsBesideTheBuildThatBuildMoreAreNamed) {
  SKIP_WITHOUT_SETUPTOOLS();
  const TempProject p(
      "beside",
      {{"csrc/a.cpp", "int a() { return 1; }\n"},
       {"csrc/bench.cpp", "int bench() { return 2; }\n"},
       {"setup.py",
        "from setuptools import setup\n"
        "from torch.utils.cpp_extension import BuildExtension, CppExtension\n"
        "setup(name='beside', ext_modules=[CppExtension('beside._C', ['csrc/a.cpp'])],\n"
        "      cmdclass={'build_ext': BuildExtension})\n"},
       {"beside/__init__.py",
        "import os\n"
        "from torch.utils.cpp_extension import load\n"
        "ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))\n"
        "try:\n"
        "    from . import _C\n"
        "except ImportError:\n"
        "    _C = load('beside_C', [os.path.join(ROOT, 'csrc', 'a.cpp')])\n"}});
  // The fallback builds what setup.py builds: nothing more to say.
  EXPECT_TRUE(read_project_build(p.setup_py(), standin_torch(), run_options()).notes.empty());
  p.write("tools/bench.py",
          "import os\n"
          "from torch.utils import cpp_extension\n"
          "ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))\n"
          "bench = cpp_extension.load(name='bench', sources=[os.path.join(ROOT, 'csrc', 'bench.cpp')])\n");
  const ProjectBuild b = read_project_build(p.setup_py(), standin_torch(), run_options());
  ASSERT_EQ(b.notes.size(), 1u);
  EXPECT_EQ(b.notes[0].message,
            "modules of the project also build extensions with cpp_extension.load() (tools/bench.py): they are not "
            "part of this build and were not analysed; `torchabi check tools/` analyses them");
}

// torch.__version__ compares as a version, as torch's TorchVersion does:
// "2.14.1" >= "2.6.0" (false as plain strings) takes the new-torch branch
// of the extension-cpp template and its clones.
TEST(SetupRun, TheStandInTorchVersionComparesAsAVersion) {
  SKIP_WITHOUT_SETUPTOOLS();
  const TempProject p(
      "version",
      {{"csrc/a.cpp", "int a;\n"},
       {"setup.py",
        "import torch\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CppExtension\n"
        "from torch.torch_version import TorchVersion\n"
        "limited = torch.__version__ >= '2.6.0' and torch.__version__ >= (2, 10) and torch.__version__ < '2.100'\n"
        // The headers' release: /t/include has none, so the stand-in's default.
        "assert isinstance(torch.__version__, TorchVersion) and torch.__version__ == '2.10.0'\n"
        "args = ['-DTORCH_TARGET_VERSION=0x020a000000000000'] if limited else []\n"
        "setup(name='v', ext_modules=[CppExtension('v._C', ['csrc/a.cpp'], extra_compile_args={'cxx': args},\n"
        "                                          py_limited_api=limited)])\n"}});
  SetupRunResult run = run_setup_py(p.setup_py(), standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(run.build) << run.failure;
  const BuildConfiguration* c = find(*run.build, "extension v._C", "cxx", "linux");
  ASSERT_TRUE(c);
  EXPECT_TRUE(has(c->arguments, "-DTORCH_TARGET_VERSION=0x020a000000000000"));
}

// torch.__path__[0] is the stand-in torch's directory (apex finds torch's
// headers from it), and submodules still come from the stand-in.
TEST(SetupRun, TheStandInTorchHasADirectory) {
  SKIP_WITHOUT_SETUPTOOLS();
  const TempProject p(
      "torch_path",
      {{"csrc/a.cpp", "int a;\n"},
       {"setup.py",
        "import os, torch, torch.nn\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CppExtension\n"
        "inc = os.path.join(torch.__path__[0], 'include')\n"
        "setup(name='tp', ext_modules=[CppExtension('tp._C', ['csrc/a.cpp'], extra_compile_args=['-DTORCH_INC=' + inc])])\n"}});
  SetupRunResult run = run_setup_py(p.setup_py(), standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(run.build) << run.failure;
  const BuildConfiguration* c = find(*run.build, "extension tp._C", "cxx", "linux");
  ASSERT_TRUE(c);
  EXPECT_TRUE(has(c->arguments, "-DTORCH_INC=/t/include"));  // standin_torch()'s headers are /t/include
}

// A script that builds for the GPU it finds and refuses the stand-in's A100
// (Blackwell-only kernels) is recorded with a GPU it accepts, and says so.
TEST(SetupRun, AScriptThatRefusesTheGpuIsRecordedWithOneItAccepts) {
  SKIP_WITHOUT_SETUPTOOLS();
  const TempProject p(
      "gpu",
      {{"csrc/k.cu", "__global__ void k() {}\n"},
       {"setup.py",
        "import torch\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
        "major, minor = torch.cuda.get_device_capability()\n"
        "if major == 10:\n    arch = 'arch=compute_100a,code=sm_100a'\n"
        "elif major == 12:\n    arch = 'arch=compute_120a,code=sm_120a'\n"
        "else:\n    raise RuntimeError('Unsupported GPU')\n"
        "setup(name='g', ext_modules=[CUDAExtension('g._C', ['csrc/k.cu'], extra_compile_args={'nvcc': ['-gencode', arch]})],\n"
        "      cmdclass={'build_ext': BuildExtension})\n"}});
  SetupRunResult run = run_setup_py(p.setup_py(), standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(run.build) << run.failure;
  const BuildConfiguration* c = find(*run.build, "extension g._C", "nvcc", "linux");
  ASSERT_TRUE(c);
  EXPECT_TRUE(has(c->arguments, "arch=compute_100a,code=sm_100a"));
  // The other platforms' runs get the same GPU: their branches are compared.
  EXPECT_TRUE(find(*run.build, "extension g._C", "nvcc", "win32"));
  ASSERT_EQ(run.build->notes.size(), 1u) << run.build->notes.back().message;
  EXPECT_NE(run.build->notes[0].message.find("RuntimeError: Unsupported GPU): its configuration for a GPU of compute "
                                             "capability 10.0 was recorded instead"),
            std::string::npos)
      << run.build->notes[0].message;
}

// A script that builds only with a ROCm torch declares nothing with the
// stand-in CUDA torch: it is run as a ROCm torch would run it.
TEST(SetupRun, AScriptThatBuildsOnlyForRocmIsRunWithARocmTorch) {
  SKIP_WITHOUT_SETUPTOOLS();
  const TempProject p(
      "rocm",
      {{"csrc/host.cpp", "int host;\n"},
       {"csrc/attn.cu", "int attn;\n"},
       {"setup.py",
        "import os, warnings, torch\nfrom setuptools import setup\n"
        "from torch.utils.cpp_extension import BuildExtension, CUDAExtension, ROCM_HOME\n"
        "ext_modules = []\n"
        "if torch.version.hip is not None:\n"
        "    assert ROCM_HOME and os.path.isdir(os.path.join(ROCM_HOME, 'bin'))\n"
        "    arch = os.environ['PYTORCH_ROCM_ARCH'].split(';')[0]\n"
        "    ext_modules.append(CUDAExtension('r._C', ['csrc/host.cpp', 'csrc/attn.cu'],\n"
        "        extra_compile_args={'cxx': ['-DTORCH_STABLE_ONLY'], 'nvcc': ['--offload-arch=' + arch]}))\n"
        "else:\n    warnings.warn('ROCm not detected')\n"
        "setup(name='r', ext_modules=ext_modules, cmdclass={'build_ext': BuildExtension})\n"}});
  SetupRunResult run = run_setup_py(p.setup_py(), standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(run.build) << run.failure;
  const BuildConfiguration* host = find(*run.build, "extension r._C", "cxx", "linux");
  const BuildConfiguration* device = find(*run.build, "extension r._C", "nvcc", "linux");
  ASSERT_TRUE(host && device);
  EXPECT_TRUE(has(host->arguments, "-DTORCH_STABLE_ONLY"));
  EXPECT_TRUE(has(device->arguments, "--offload-arch=gfx942"));
  EXPECT_EQ(facts(*run.build, "built for ROCm").size(), 1u);
}

TEST(SetupRun, PlatformAndCudaBranchesAsTheScriptTakesThem) {
  SKIP_WITHOUT_SETUPTOOLS();
  const std::string dir = kProjects + "/setup_run_platform";
  SetupRunResult r = run_setup_py(dir + "/setup.py", standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(r.build) << r.failure;
  const ProjectBuild& b = *r.build;
  const std::string unit = "extension platform_demo._C";
  // A CUDAExtension's host sources get CUDA's headers too (this machine's, if any).
  Args includes = {"-I/t/include", "-I/t/include/torch/csrc/api/include", "-I" + python_include()};
  if (!host_cuda_include_dir().empty()) includes.insert(includes.end() - 1, "-I" + host_cuda_include_dir());
  const BuildConfiguration* cxx = find(b, unit, "cxx", "linux");
  ASSERT_TRUE(cxx);
  EXPECT_EQ(cxx->sources, (Args{dir + "/csrc/binding.cpp"}));
  EXPECT_EQ(cxx->line, 46);
  Args want = {"c++"};
  want.insert(want.end(), includes.begin(), includes.end());
  want.insert(want.end(), {"-DPLATFORM_DEMO=1", "-UNDEBUG", "-O3", "-DTORCH_TARGET_VERSION=0x020a000000000000",
                           "-fvisibility=hidden", "-fopenmp", "-DTORCH_API_INCLUDE_EXTENSION_H", "-DPy_LIMITED_API=0x030A0000",
                           "-DTORCH_EXTENSION_NAME=_C", "-std=c++20", "-fPIC"});
  EXPECT_EQ(cxx->arguments, want);
  EXPECT_FALSE(has(cxx->arguments, "-DUSE_CUDA"));
  // `if CUDA_HOME is not None` and get_nvcc_flags(): taken, as with CUDA.
  const BuildConfiguration* nvcc = find(b, unit, "nvcc", "linux");
  ASSERT_TRUE(nvcc);
  EXPECT_EQ(nvcc->sources, (Args{dir + "/csrc/cuda/scale.cu"}));
  want = {"nvcc"};
  // CUDA's headers come with the CUDA parse of a .cu file, not as -I.
  want.insert(want.end(), {"-I/t/include", "-I/t/include/torch/csrc/api/include", "-I" + python_include()});
  want.insert(want.end(), {"-DPLATFORM_DEMO=1", "-UNDEBUG", "-O3", "--expt-relaxed-constexpr",
                           "-DTORCH_TARGET_VERSION=0x020a000000000000", "-DFORCED_CUDA",
                           "-DTORCH_API_INCLUDE_EXTENSION_H", "-DPy_LIMITED_API=0x030A0000",
                           "-DTORCH_EXTENSION_NAME=_C", "-std=c++20"});
  EXPECT_EQ(nvcc->arguments, want);
  // `match sys.platform:` and `if os.name == "nt"`.
  const BuildConfiguration* mac = find(b, unit, "cxx", "darwin");
  ASSERT_TRUE(mac);
  EXPECT_EQ(mac->sources, (Args{dir + "/csrc/binding.cpp", dir + "/csrc/mps/scale_mps.cpp"}));
  EXPECT_TRUE(has(mac->arguments, "-DPLATFORM_MACOS"));
  EXPECT_FALSE(has(mac->arguments, "-DUSE_CUDA"));
  const BuildConfiguration* win = find(b, unit, "cxx", "win32");
  ASSERT_TRUE(win);
  EXPECT_TRUE(has(win->arguments, "-DUSE_CUDA"));
  EXPECT_TRUE(has(win->arguments, "/permissive-"));
  EXPECT_FALSE(has(win->arguments, "-fvisibility=hidden"));
  EXPECT_EQ(facts(b, unit + " (cxx) on win32"), (Args{"adds -DUSE_CUDA; adds /permissive-; drops -fopenmp; drops -fvisibility=hidden"}));
  EXPECT_EQ(facts(b, unit + " (cxx) on darwin"),
            (Args{"adds -DPLATFORM_MACOS; drops -fopenmp; drops -fvisibility=hidden; also compiles " + dir + "/csrc/mps/scale_mps.cpp"}));
  EXPECT_TRUE(facts(b, unit + " (nvcc) on win32").empty());
}

TEST(SetupRun, ProjectModeLintsThePlatformAskedFor) {
  SKIP_WITHOUT_SETUPTOOLS();
  // Through read_project_build with the machine's python3: its own torch,
  // when it has one, so only what does not depend on that is checked.
  const std::string setup = kProjects + "/setup_run_platform/setup.py";
  ProjectOptions o = run_options();
  o.python = kPython;
  o.platform = "win32";
  ProjectBuild win = read_project_build(setup, standin_torch(), o);
  ASSERT_EQ(win.db.commands.size(), 2u);
  EXPECT_TRUE(has(win.db.commands[0].arguments, "-DUSE_CUDA"));
  EXPECT_EQ(win.db.commands[0].label, "extension platform_demo._C (cxx, win32)");
  const BuildConfiguration* linux_cxx = find(win, "extension platform_demo._C", "cxx", "linux");
  ASSERT_TRUE(linux_cxx);
  EXPECT_FALSE(has(linux_cxx->arguments, "-DUSE_CUDA"));
  EXPECT_TRUE(facts(win, "build description")[0].starts_with("setup.py run in CPython 3."));
  EXPECT_TRUE(win.notes.empty());
}

TEST(SetupRun, AnInstalledCppExtensionsPathsGiveWayToTheChosenHeaders) {
  SKIP_WITHOUT_SETUPTOOLS();
  const std::string dir = kProjects + "/setup_run_platform";
  ProjectOptions o = run_options();
  o.python = python_with_fake_torch();
  SetupRunResult r = run_setup_py(dir + "/setup.py", standin_torch(), o);
  ASSERT_TRUE(r.build) << r.failure;
  const BuildConfiguration* cxx = find(*r.build, "extension platform_demo._C", "cxx", "linux");
  ASSERT_TRUE(cxx);
  EXPECT_TRUE(cxx->method.ends_with(" (torch 2.14.1's cpp_extension)")) << cxx->method;
  // cpp_extension's torch paths are replaced by the chosen headers; the
  // stand-in CUDA toolkit's include directory gives way to this machine's.
  const Args cuda = host_cuda_include_dir().empty() ? Args{} : Args{"-I" + host_cuda_include_dir()};
  auto without_cuda = [&](const Args& args) {  // the first five arguments but CUDA's
    Args out = args;
    if (!cuda.empty()) out.erase(std::remove(out.begin(), out.end(), cuda[0]), out.end());
    out.resize(std::min<size_t>(out.size(), 5));
    return out;
  };
  EXPECT_EQ(cuda.empty() || has(cxx->arguments, cuda[0]), true);
  EXPECT_EQ(without_cuda(cxx->arguments),
            (Args{"c++", "-I/t/include", "-I/t/include/torch/csrc/api/include", "-I" + python_include(),
                  "-DPLATFORM_DEMO=1"}));
  // Without chosen headers, cpp_extension's own are used.
  r = run_setup_py(dir + "/setup.py", TorchLocation{}, o);
  ASSERT_TRUE(r.build) << r.failure;
  cxx = find(*r.build, "extension platform_demo._C", "cxx", "win32");
  ASSERT_TRUE(cxx);
  EXPECT_EQ(without_cuda(cxx->arguments),
            (Args{"c++", "-I/fake/torch/include", "-I/fake/torch/include/api", "-I" + python_include(),
                  "-DPLATFORM_DEMO=1"}));
  EXPECT_TRUE(has(cxx->arguments, "-DUSE_CUDA"));
  EXPECT_TRUE(has(cxx->arguments, "-std=c++20"));  // read from that cpp_extension.py
  EXPECT_TRUE(has(cxx->arguments, "-DPy_LIMITED_API=0x030A0000"));
  std::map<std::string, std::string> facts(r.build->facts.begin(), r.build->facts.end());
  EXPECT_EQ(facts.at("torch headers"), "torch 2.14.1's cpp_extension: /fake/torch/include /fake/torch/include/api");
}

TEST(SetupRun, AScriptThatRaisesIsReadStatically) {
  SKIP_WITHOUT_SETUPTOOLS();
  const std::string dir = kProjects + "/setup_run_raises";
  SetupRunResult r = run_setup_py(dir + "/setup.py", standin_torch(), run_options(), RecorderTorch::StandIn);
  EXPECT_FALSE(r.build);
  EXPECT_EQ(r.failure, "setup.py:8: RuntimeError: nvcc 99.0 is required");
  ProjectBuild b = read_project_build(dir + "/setup.py", standin_torch(), run_options());
  ASSERT_FALSE(b.notes.empty());
  EXPECT_EQ(b.notes[0].file, dir + "/setup.py");
  EXPECT_EQ(b.notes[0].message,
            "setup.py could not be run (setup.py:8: RuntimeError: nvcc 99.0 is required): read statically instead");
  ASSERT_EQ(b.db.commands.size(), 1u);
  EXPECT_EQ(b.db.commands[0].file, dir + "/ops.cpp");
  EXPECT_EQ(b.configurations[0].method, "setup.py read, not run");
}

TEST(SetupRun, AMissingInterpreterIsReadStatically) {
  ProjectOptions o = run_options();
  o.python = "/nonexistent/python3";
  ProjectBuild b = read_project_build(kProjects + "/setup_run_raises/setup.py", standin_torch(), o);
  ASSERT_FALSE(b.notes.empty());
  EXPECT_EQ(b.notes[0].message,
            "setup.py could not be run (cannot run /nonexistent/python3: No such file or directory): read statically "
            "instead");
  EXPECT_EQ(b.db.commands.size(), 1u);
}

bool process_running(const std::string& cmdline) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(s.begin(), s.end(), '\0', ' ');
    if (s.starts_with(cmdline)) return true;
  }
  return false;
}

TEST(SetupRun, AScriptThatHangsIsKilledWithWhatItStarted) {
  SKIP_WITHOUT_SETUPTOOLS();
  ScratchTmp tmp;
  const std::string setup = kProjects + "/setup_run_sleeps/setup.py";
  ProjectBuild b = read_project_build(setup, standin_torch(), run_options(/*timeout=*/3));
  ASSERT_FALSE(b.notes.empty());
  EXPECT_EQ(b.notes[0].message, "setup.py could not be run (it did not finish within 3 s): read statically instead");
  EXPECT_EQ(b.db.commands.size(), 1u);
  EXPECT_TRUE(tmp.empty());
  EXPECT_FALSE(process_running("sleep 987654"));
}

TEST(SetupRun, AScriptThatWritesLeavesTheProjectAsItWas) {
  SKIP_WITHOUT_SETUPTOOLS();
  ScratchTmp tmp;
  const fs::path dir = kProjects + "/setup_run_writes";
  const auto before = snapshot(dir);
  SetupRunResult r = run_setup_py((dir / "setup.py").string(), standin_torch(), run_options(), RecorderTorch::StandIn);
  ASSERT_TRUE(r.build) << r.failure;
  EXPECT_EQ(snapshot(dir), before);
  EXPECT_TRUE(tmp.empty());
  const BuildConfiguration* c = find(*r.build, "extension writes_demo._C", "cxx", "linux");
  ASSERT_TRUE(c);
  // What the script generates exists only in the copy: not linted, said so.
  EXPECT_EQ(c->sources, (Args{(dir / "csrc/ops.cpp").string()}));
  ASSERT_EQ(r.build->notes.size(), 1u);
  EXPECT_EQ(r.build->notes[0].line, 21);
  EXPECT_EQ(r.build->notes[0].message, "source " + (dir / "csrc/generated.cpp").string() +
                                           " of extension writes_demo._C is not in the project (setup.py writes it "
                                           "when it runs, or it is missing): not linted");
}

TEST(SetupRun, AScriptThatDrivesCMakeGivesWayToCMakeLists) {
  SKIP_WITHOUT_SETUPTOOLS();
  const std::string dir = kProjects + "/setup_run_cmake";
  SetupRunResult r = run_setup_py(dir + "/setup.py", standin_torch(), run_options(), RecorderTorch::StandIn);
  EXPECT_FALSE(r.build);
  EXPECT_TRUE(r.no_extensions);
  // CMakeLists.txt is configured (or read, where cmake cannot run) instead.
  ProjectBuild b = read_project_build(dir + "/setup.py", standin_torch(), run_options());
  ASSERT_EQ(b.db.commands.size(), 1u);
  EXPECT_EQ(b.db.commands[0].file, dir + "/ops.cpp");
  EXPECT_EQ(b.configurations[0].unit, "target cmake_driven_C");
  for (const auto& n : b.notes) EXPECT_EQ(n.message.find("could not be run"), std::string::npos) << n.message;
}

// vLLM's shape: build_ext configures CMake itself with values only the
// script knows. Its first configure is recorded (never run, nor the build
// after it), and CMakeLists.txt is configured with those values: without
// them it stops at its FATAL_ERROR, with them the target version is there.
TEST(SetupRun, AScriptWhoseBuildExtRunsCMakeGivesItsDefinesToTheConfigure) {
  SKIP_WITHOUT_SETUPTOOLS();
  if (std::system("cmake --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no cmake";
  const std::string dir = kProjects + "/setup_drives_cmake";
  SetupRunResult r = run_setup_py(dir + "/setup.py", standin_torch(), run_options(), RecorderTorch::StandIn);
  EXPECT_FALSE(r.build);
  ASSERT_TRUE(r.no_extensions);
  ASSERT_TRUE(r.cmake) << r.failure;
  EXPECT_EQ(r.cmake->source_dir, ".");
  EXPECT_EQ(r.cmake->build_ext, "cmake_build_ext");
  const std::vector<std::string>& d = r.cmake->defines;
  EXPECT_NE(std::find(d.begin(), d.end(), "DRIVEN_TARGET_VERSION=0x020a000000000000"), d.end());
  EXPECT_NE(std::find(d.begin(), d.end(), "CMAKE_BUILD_TYPE=RelWithDebInfo"), d.end());
  // The output directory named the recorder's scratch copy: not passed on.
  for (const auto& v : d) EXPECT_EQ(v.rfind("CMAKE_LIBRARY_OUTPUT_DIRECTORY", 0), std::string::npos) << v;

  ProjectBuild b = read_project_build(dir + "/setup.py", standin_torch(), run_options());
  ASSERT_EQ(b.db.commands.size(), 1u);
  EXPECT_EQ(b.db.commands[0].file, dir + "/ops.cpp");
  EXPECT_EQ(b.configurations[0].unit, "target driven_C");
  const auto& args = b.configurations[0].arguments;
  EXPECT_NE(std::find(args.begin(), args.end(), "-DTORCH_TARGET_VERSION=0x020a000000000000"), args.end())
      << ::testing::PrintToString(args);
  bool said = false;
  for (const auto& [k, v] : b.facts) said |= k == "setup.py" && v.find("cmake_build_ext") != std::string::npos;
  EXPECT_TRUE(said);
  for (const auto& n : b.notes) EXPECT_EQ(n.message.find("could not be configured"), std::string::npos) << n.message;
}

TEST(SetupRun, AScriptThatFailsBeforeItsCMakeProjectIsConfiguredKeepsItsNote) {
  SKIP_WITHOUT_SETUPTOOLS();
  ScratchDir scratch("fails-then-cmake");
  const fs::path dir = fs::path(scratch.path()) / "proj";
  fs::copy(kProjects + "/setup_run_cmake", dir, fs::copy_options::recursive);
  std::ofstream(dir / "setup.py") << "from setuptools import setup\nraise RuntimeError('needs nvcc 99')\nsetup(name='x')\n";
  ProjectBuild b = read_project_build((dir / "setup.py").string(), standin_torch(), run_options());
  ASSERT_EQ(b.db.commands.size(), 1u);  // the CMake project still answers
  bool kept = false;
  for (const auto& n : b.notes) kept |= n.message.find("could not be run") != std::string::npos &&
                                        n.message.find("needs nvcc 99") != std::string::npos;
  EXPECT_TRUE(kept);
}

TEST(ProjectCopy, AScriptsCopyLeavesOutHistoryBuildOutputsAndArtifactsKeepsLinks) {
  ScratchTmp tmp;
  ScratchDir scratch("copy-test");
  const fs::path from = fs::path(scratch.path()) / "proj", to = fs::path(scratch.path()) / "copy";
  fs::create_directories(from / ".git/objects");
  fs::create_directories(from / "build/lib");
  fs::create_directories(from / "src/build");
  fs::create_directories(from / "pkg.egg-info");
  std::ofstream(from / "setup.py") << "x";
  std::ofstream(from / ".git/HEAD") << "ref";
  std::ofstream(from / "build/lib/a.so") << "elf";
  std::ofstream(from / "src/build/keep.cpp") << "int x;";
  std::ofstream(from / "src/model.pt") << "weights";
  std::ofstream(from / "pkg.egg-info/PKG-INFO") << "m";
  fs::create_symlink("../setup.py", from / "src/link.py");
  fs::create_directories(to);
  copy_project_tree(from.string(), to.string(), CopyLimits{kMaxScriptCopyBytes});
  EXPECT_TRUE(fs::exists(to / "setup.py"));
  EXPECT_TRUE(fs::exists(to / "src/build/keep.cpp"));  // only the top build/ is setup.py's
  EXPECT_FALSE(fs::exists(to / ".git"));
  EXPECT_FALSE(fs::exists(to / "build"));
  EXPECT_FALSE(fs::exists(to / "pkg.egg-info"));
  EXPECT_FALSE(fs::exists(to / "src/model.pt"));
  ASSERT_TRUE(fs::is_symlink(to / "src/link.py"));
  EXPECT_EQ(fs::read_symlink(to / "src/link.py"), "../setup.py");
  try {
    fs::create_directories(fs::path(scratch.path()) / "small");
    copy_project_tree(from.string(), scratch.path() + "/small", CopyLimits{4});
    FAIL() << "no error over the size cap";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), from.string());
    EXPECT_NE(std::string(e.what()).find("is larger than 0 MB"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace torchabi::inputs
