// `torchabi check DIR` on repositories whose build scripts expect a build
// machine (inputs/project/environment/): required environment variables, an
// nvcc version check, a submodule that is not checked out, files and git
// metadata the copy lacks, build-only packages, a script that fails after
// constructing its extension or only where CUDA looks available, and one
// with no build torchabi understands. Each must be analysed, never exit 2;
// and a hostile setup.py must find no network, no secrets, nothing to write.
#include <arpa/inet.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <set>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "project_findings.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using lint::write_file;

// Debian's python3 (python3-torch 1.13 is installed there by the test
// packages) and the same interpreter with torch made unimportable.
const std::string kPython = "/usr/bin/python3";

std::string python_without_torch(const std::string& dir) {
  write_file(dir, "shadow/torch/__init__.py", "raise ImportError('no torch in this interpreter')\n");
  const std::string wrapper = write_file(dir, "python", "#!/bin/sh\nPYTHONPATH=" + dir + "/shadow exec " + kPython + " \"$@\"\n");
  // Readable by all, as installed interpreters are: as root the script runs
  // as nobody (inputs/project/environment/sandbox.h).
  for (const fs::path& p : {fs::path(dir), fs::path(wrapper)})
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                           fs::perms::others_exec);
  return wrapper;
}

const char* kStableOps =
    "#include <torch/csrc/stable/library.h>\n"
    "#include <torch/csrc/stable/tensor.h>\n"
    "torch::stable::Tensor identity(torch::stable::Tensor t) { return t; }\n"
    "STABLE_TORCH_LIBRARY(bm, m) { m.def(\"identity(Tensor t) -> Tensor\"); }\n"
    "STABLE_TORCH_LIBRARY_IMPL(bm, CPU, m) { m.impl(\"identity\", TORCH_BOX(&identity)); }\n";

std::set<std::string> linted_units(const nlohmann::json& j) {
  std::set<std::string> units;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") units.insert(fs::path(s["path"].get<std::string>()).filename().string());
  return units;
}

std::string fact(const nlohmann::json* project, const std::string& name) {
  if (!project || !project->contains("facts") || !project->at("facts").contains(name)) return "";
  return project->at("facts").at(name).get<std::string>();
}

std::vector<std::string> headers() {
  if (test::real_torch_root()) return {"--torch-include", test::real_torch_include()};
  return {"--torch-include", source_dir() + "/fixtures/lint/include"};
}

nlohmann::json check(const std::string& dir, const std::string& python, int* exit_code, std::string* err = nullptr) {
  std::vector<std::string> args = {"check", "--format", "json", "--no-cache", "--python", python};
  for (const auto& h : headers()) args.push_back(h);
  args.push_back(dir);
  auto r = run_torchabi(args);
  *exit_code = r.exit_code;
  if (err) *err = r.err;
  return r.exit_code == 2 ? nlohmann::json::object() : r.json();
}

// A setup.py that stops before setup() anywhere but on a build machine.
std::string build_machine_project() {
  const std::string dir = make_temp_dir() + "/bm";
  write_file(dir, "setup.py",
             "import os, re, subprocess\n"
             "import build_only_helper_xyz as helper\n"
             "from build_only_helper_xyz.versioning import get_version\n"
             "from setuptools import setup\n"
             "import torch\n"
             "from torch.utils.cpp_extension import CUDAExtension, BuildExtension, CUDA_HOME, ROCM_HOME, IS_HIP_EXTENSION\n"
             "assert torch._C._GLIBCXX_USE_CXX11_ABI in (True, False)\n"
             "assert not IS_HIP_EXTENSION and ROCM_HOME is None\n"
             "if not os.environ.get('TORCH_CUDA_ARCH_LIST'):\n"
             "    raise RuntimeError('CUDAArchListError: set TORCH_CUDA_ARCH_LIST')\n"
             "out = subprocess.check_output([os.path.join(CUDA_HOME, 'bin', 'nvcc'), '--version']).decode()\n"
             "release = tuple(int(x) for x in re.search(r'release (\\d+)\\.(\\d+)', out).groups())\n"
             "assert release >= (12, 9), 'sm100 requires NVCC 12.9'\n"
             "if not os.path.exists('third_party/cutlass/include'):\n"
             "    raise RuntimeError('CUTLASS submodule not found at third_party/cutlass/include')\n"
             "version = open('version.txt').read().strip()\n"
             "long_description = open('README.md').read()\n"
             "sha = subprocess.check_output(['git', 'rev-parse', 'HEAD']).decode().strip()\n"
             "assert len(sha) == 40, sha\n"
             "target = ['-DTORCH_TARGET_VERSION=0x020a000000000000']\n"
             "exts = [CUDAExtension('bm._C', ['csrc/ops.cpp', 'csrc/kernel.cu'],\n"
             "        extra_compile_args={'cxx': target, 'nvcc': target})]\n"
             // One extension per compute capability, as the release wheels list them (Ada's too).
             "if '8.9' in os.environ['TORCH_CUDA_ARCH_LIST'].replace(' ', ';').split(';'):\n"
             "    exts.append(CUDAExtension('bm._sm89', ['csrc/sm89.cu'], extra_compile_args={'nvcc': target}))\n"
             "setup(name='bm', version=version, ext_modules=exts, cmdclass={'build_ext': BuildExtension})\n");
  write_file(dir, ".gitmodules", "[submodule \"third_party/cutlass\"]\n\tpath = third_party/cutlass\n\turl = https://example.invalid/cutlass.git\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  write_file(dir, "csrc/kernel.cu", "#include <torch/csrc/stable/tensor.h>\nint kernel_marker = 1;\n");
  write_file(dir, "csrc/sm89.cu", "#include <torch/csrc/stable/tensor.h>\nint sm89_marker = 1;\n");
  return dir;
}

void expect_build_machine_read(const std::string& python) {
  const std::string dir = build_machine_project();
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python, &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(j), (std::set<std::string>{"ops.cpp", "kernel.cu", "sm89.cu"})) << j.dump(1);
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  EXPECT_NE(fact(project, "build description").find("setup.py run in CPython"), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "build environment").find("sandboxed"), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "build environment").find("TORCH_CUDA_ARCH_LIST="), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "given to setup.py: module").find("build_only_helper_xyz"), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "given to setup.py: file").find("version.txt"), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "given to setup.py: file").find("README.md"), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "given to setup.py: submodule").find("third_party/cutlass"), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "extension bm._C nvcc flags").find("-DTORCH_TARGET_VERSION=0x020a000000000000"), std::string::npos);
  // Nothing was written into the user's tree.
  EXPECT_FALSE(fs::exists(dir + "/version.txt"));
  EXPECT_FALSE(fs::exists(dir + "/third_party"));
}

TEST(BuildEnvironment, ABuildMachineScriptRunsWithTheStandInTorch) {
  expect_build_machine_read(python_without_torch(make_temp_dir()));
}

TEST(BuildEnvironment, ABuildMachineScriptRunsWithARealTorch) {
  if (!fs::exists("/usr/lib/python3/dist-packages/torch/__init__.py")) GTEST_SKIP() << "Debian's python3-torch is not installed";
  expect_build_machine_read(kPython);
}

TEST(BuildEnvironment, WhatAScriptConstructedBeforeFailingIsAnalysed) {
  const std::string dir = make_temp_dir() + "/partial";
  write_file(dir, "setup.py",
             "from torch.utils.cpp_extension import CppExtension\n"
             "ext = CppExtension('partial._C', ['csrc/ops.cpp'], extra_compile_args=['-DTORCH_TARGET_VERSION=0x020a000000000000'])\n"
             "raise RuntimeError('the wheel-naming helper failed')\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(j), (std::set<std::string>{"ops.cpp"})) << j.dump(1);
  bool noted = false;
  for (const auto& f : j["findings"])
    noted |= f["message"].get<std::string>().find("raised after constructing 1 extension") != std::string::npos &&
             f["message"].get<std::string>().find("wheel-naming helper failed") != std::string::npos;
  EXPECT_TRUE(noted) << j.dump(1);
}

TEST(BuildEnvironment, AScriptThatFailsWhereCudaLooksAvailableGivesItsCpuConfiguration) {
  const std::string dir = make_temp_dir() + "/cpu";
  write_file(dir, "setup.py",
             "import torch\n"
             "from setuptools import setup\n"
             "from torch.utils.cpp_extension import CppExtension, BuildExtension\n"
             "if torch.cuda.is_available():\n"
             "    raise RuntimeError('this build compiles a probe kernel with nvcc first')\n"
             "setup(name='cpu', ext_modules=[CppExtension('cpu._C', ['csrc/ops.cpp'])], cmdclass={'build_ext': BuildExtension})\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(j), (std::set<std::string>{"ops.cpp"})) << j.dump(1);
  bool noted = false;
  for (const auto& f : j["findings"])
    noted |= f["message"].get<std::string>().find("failed with CUDA available") != std::string::npos;
  EXPECT_TRUE(noted) << j.dump(1);
}

// A script that branches on the CUDA major (FlashAttention-3 downloads an
// nvcc for 12.x, the sandbox has no network) is run once more with the next
// major, and its CUDA configuration is the one recorded.
TEST(BuildEnvironment, AScriptThatFailsWithOneCudaReleaseIsRecordedWithTheNext) {
  const std::string dir = make_temp_dir() + "/major";
  write_file(dir, "setup.py",
             "import os, re, subprocess\n"
             "from setuptools import setup\n"
             "from torch.utils.cpp_extension import CUDAExtension, BuildExtension, CUDA_HOME\n"
             "out = subprocess.check_output([os.path.join(CUDA_HOME, 'bin', 'nvcc'), '-V']).decode()\n"
             "major = int(re.search(r'release (\\d+)\\.', out).group(1))\n"
             "if major < 13:\n"
             "    import urllib.request\n"
             "    urllib.request.urlopen('http://127.0.0.1:9/nvcc-archive.tar.xz', timeout=5)\n"
             "target = ['-DTORCH_TARGET_VERSION=0x020a000000000000']\n"
             "setup(name='major', ext_modules=[CUDAExtension('major._C', ['csrc/ops.cpp', 'csrc/kernel.cu'],\n"
             "      extra_compile_args={'cxx': target, 'nvcc': target})], cmdclass={'build_ext': BuildExtension})\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  write_file(dir, "csrc/kernel.cu", "#include <torch/csrc/stable/tensor.h>\nint kernel_marker = 1;\n");
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(j), (std::set<std::string>{"ops.cpp", "kernel.cu"})) << j.dump(1);
  bool noted = false;
  for (const auto& f : j["findings"])
    noted |= f["message"].get<std::string>().find("configuration with CUDA 13.0 was recorded instead") != std::string::npos;
  EXPECT_TRUE(noted) << j.dump(1);

  // Its forks (LiteAttention) download unless the release is exactly 12.8.
  write_file(dir, "setup.py",
             "import os, re, subprocess\n"
             "from setuptools import setup\n"
             "from torch.utils.cpp_extension import CUDAExtension, BuildExtension, CUDA_HOME\n"
             "out = subprocess.check_output([os.path.join(CUDA_HOME, 'bin', 'nvcc'), '-V']).decode()\n"
             "if re.search(r'release (\\d+\\.\\d+)', out).group(1) != '12.8':\n"
             "    import urllib.request\n"
             "    urllib.request.urlopen('http://127.0.0.1:9/nvcc-12.8.tar.xz', timeout=5)\n"
             "target = ['-DTORCH_TARGET_VERSION=0x020a000000000000']\n"
             "setup(name='exact', ext_modules=[CUDAExtension('exact._C', ['csrc/ops.cpp', 'csrc/kernel.cu'],\n"
             "      extra_compile_args={'cxx': target, 'nvcc': target})], cmdclass={'build_ext': BuildExtension})\n");
  const nlohmann::json k = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(k), (std::set<std::string>{"ops.cpp", "kernel.cu"})) << k.dump(1);
  noted = false;
  for (const auto& f : k["findings"])
    noted |= f["message"].get<std::string>().find("configuration with CUDA 12.8 was recorded instead") != std::string::npos;
  EXPECT_TRUE(noted) << k.dump(1);
}

// Flags a build_ext subclass adds before the build starts are the build's
// flags (nunchaku copies extra_compile_args["gcc"] into ["cxx"]); what it
// does after super().build_extensions() is the build, never reached.
void expect_build_ext_override_recorded(const std::string& python) {
  const std::string dir = make_temp_dir() + "/override";
  write_file(dir, "setup.py",
             "from setuptools import setup\n"
             "from torch.utils.cpp_extension import BuildExtension, CppExtension\n"
             "class Build(BuildExtension):\n"
             "    def build_extensions(self):\n"
             "        key = 'msvc' if self.compiler.compiler_type == 'msvc' else 'gcc'\n"
             "        for ext in self.extensions:\n"
             "            ext.extra_compile_args['cxx'] = ext.extra_compile_args.get('cxx', []) + ext.extra_compile_args[key]\n"
             "        super().build_extensions()\n"
             "        open('/tmp/torchabi-override-reached', 'w').write('the build ran')\n"
             "setup(name='ov', ext_modules=[CppExtension('ov._C', ['csrc/ops.cpp'], extra_compile_args={\n"
             "    'gcc': ['-DUSE_CUDA', '-DTORCH_TARGET_VERSION=0x020a000000000000'], 'msvc': ['/DUSE_CUDA']})],\n"
             "    cmdclass={'build_ext': Build})\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python, &rc, &err);
  ASSERT_NE(rc, 2) << err;
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  const std::string flags = fact(project, "extension ov._C c++ flags");
  EXPECT_NE(flags.find("-DUSE_CUDA"), std::string::npos) << project->dump(1);
  EXPECT_NE(flags.find("-DTORCH_TARGET_VERSION=0x020a000000000000"), std::string::npos) << project->dump(1);
  EXPECT_NE(fact(project, "given to setup.py: build_ext").find("Build.build_extensions() ran up to the build"),
            std::string::npos)
      << project->dump(1);
  for (const auto& f : j["findings"]) EXPECT_NE(f["rule"], "build-extension-without-target") << f.dump(1);
  EXPECT_FALSE(fs::exists("/tmp/torchabi-override-reached"));
}

TEST(BuildEnvironment, FlagsABuildExtSubclassAddsAreRecordedWithTheStandInTorch) {
  expect_build_ext_override_recorded(python_without_torch(make_temp_dir()));
}

TEST(BuildEnvironment, FlagsABuildExtSubclassAddsAreRecordedWithARealTorch) {
  if (!fs::exists("/usr/lib/python3/dist-packages/torch/__init__.py")) GTEST_SKIP() << "Debian's python3-torch is not installed";
  expect_build_ext_override_recorded(kPython);
}

// An import the script guards itself (`except ImportError: x = None`) stays
// absent, so the script takes its branch for a missing package; one whose
// handler gives up (raise) gets the stand-in, as a build machine has it.
TEST(BuildEnvironment, OptionalImportsStayAbsentRequiredOnesAreStoodIn) {
  const std::string dir = make_temp_dir() + "/optional";
  write_file(dir, "setup.py",
             "from setuptools import setup\n"
             "from torch.utils.cpp_extension import BuildExtension, CppExtension\n"
             "try:\n"
             "    import optional_framework_xyz\n"
             "except ImportError:\n"
             "    optional_framework_xyz = None\n"
             "try:\n"
             "    import required_helper_xyz\n"
             "except ImportError:\n"
             "    raise RuntimeError('pip install required_helper_xyz')\n"
             "flags = ['-DTORCH_TARGET_VERSION=0x020a000000000000']\n"
             "if optional_framework_xyz is not None:\n"
             "    flags.append('-DWITH_OPTIONAL_FRAMEWORK')\n"
             "setup(name='opt', ext_modules=[CppExtension('opt._C', ['csrc/ops.cpp'], extra_compile_args=flags)],\n"
             "      cmdclass={'build_ext': BuildExtension})\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ASSERT_NE(rc, 2) << err;
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  const std::string flags = fact(project, "extension opt._C c++ flags");
  EXPECT_NE(flags.find("-DTORCH_TARGET_VERSION=0x020a000000000000"), std::string::npos) << project->dump(1);
  EXPECT_EQ(flags.find("WITH_OPTIONAL_FRAMEWORK"), std::string::npos) << project->dump(1);
  const std::string modules = fact(project, "given to setup.py: module");
  EXPECT_NE(modules.find("required_helper_xyz (not installed in this interpreter: a permissive stand-in)"), std::string::npos)
      << project->dump(1);
  EXPECT_NE(modules.find("optional_framework_xyz (not installed; imported where the script handles its absence"),
            std::string::npos)
      << project->dump(1);
}

// Scripts that find torch's headers from where torch is installed
// (torch.utils.cmake_prefix_path, torch.__file__, include_paths()) find the
// headers torchabi lints with.
TEST(BuildEnvironment, TheStandInTorchLeadsToTheHeadersInUse) {
  const std::string dir = make_temp_dir() + "/paths";
  write_file(dir, "setup.py",
             "import os\n"
             "from pathlib import Path\n"
             "import torch, torch.utils\n"
             "from setuptools import setup, Extension\n"
             "from torch.utils.cpp_extension import include_paths\n"
             "inc = Path(torch.utils.cmake_prefix_path).parent.parent / 'include'\n"
             "assert str(inc) == os.path.join(os.path.dirname(torch.__file__), 'include'), inc\n"
             "assert include_paths()[0] == str(inc), include_paths()\n"
             "setup(name='p', ext_modules=[Extension('p._C', ['csrc/ops.cpp'], include_dirs=[str(inc)],\n"
             "      extra_compile_args=['-DTORCH_TARGET_VERSION=0x020a000000000000'])])\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ASSERT_NE(rc, 2) << err;
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  const std::string include = headers()[1];
  EXPECT_NE(fact(project, "extension p._C c++ flags").find("-I" + include), std::string::npos) << project->dump(1);
  for (const auto& f : j["findings"]) {
    EXPECT_NE(f["rule"], "source-torch-headers-not-found") << f.dump(1);
    EXPECT_NE(f["rule"], "build-api-not-in-headers") << f.dump(1);
  }
}

TEST(BuildEnvironment, SourcesWithoutAnUnderstoodBuildAreLintedNotExit2) {
  const std::string dir = make_temp_dir() + "/nobuild";
  write_file(dir, "csrc/ops.cpp", kStableOps);
  write_file(dir, "csrc/unrelated.cpp", "int unrelated() { return 1; }\n");
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, kPython, &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(j), (std::set<std::string>{"ops.cpp"})) << j.dump(1);
  bool noted = false;
  for (const auto& f : j["findings"]) {
    noted |= f["rule"] == "project-flag-unresolved" &&
             f["message"].get<std::string>().find("the build was not understood") != std::string::npos;
    // A guess is never an error or a warning.
    if (f["rule"].get<std::string>().starts_with("build-") || f["rule"].get<std::string>().starts_with("version-"))
      EXPECT_EQ(f["severity"], "note") << f.dump();
  }
  EXPECT_TRUE(noted) << j.dump(1);

  // The same for a setup.py that fails everywhere.
  write_file(dir, "setup.py", "raise SystemExit('this package is built by our internal tooling only')\n");
  const nlohmann::json k = check(dir, kPython, &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(k), (std::set<std::string>{"ops.cpp"})) << k.dump(1);
}

// A stable port usually includes the stable ABI once, in a compatibility
// header its sources include: those sources are stable too (torchcodec's
// StableABICompat.h). One whose header reaches ATen is not; a comment naming
// ATen/ is not an include.
TEST(BuildEnvironment, SweptSourcesAreJudgedThroughTheProjectsHeaders) {
  const std::string dir = make_temp_dir() + "/compat";
  write_file(dir, "csrc/compat/StableCompat.h",
             "#pragma once\n#include <torch/csrc/stable/tensor.h>\n#include <torch/csrc/stable/library.h>\n"
             "// see aten/src/ATen/native for the original\n");
  write_file(dir, "csrc/Codec.h", "#pragma once\n#include \"compat/StableCompat.h\"\n");
  write_file(dir, "csrc/decoder.cpp",
             "#include \"Codec.h\"\n"
             "torch::stable::Tensor decode(torch::stable::Tensor t) { return t; }\n");
  write_file(dir, "csrc/ops.cpp",
             "#include <compat/StableCompat.h>\n"
             "torch::stable::Tensor identity(torch::stable::Tensor t) { return t; }\n"
             "STABLE_TORCH_LIBRARY(bm, m) { m.def(\"identity(Tensor t) -> Tensor\"); }\n"
             "STABLE_TORCH_LIBRARY_IMPL(bm, CPU, m) { m.impl(\"identity\", TORCH_BOX(&identity)); }\n");
  write_file(dir, "csrc/legacy/Old.h", "#pragma once\n#include <ATen/ATen.h>\n");
  write_file(dir, "csrc/legacy/old.cpp", "#include \"Old.h\"\nint old() { return 1; }\n");
  write_file(dir, "csrc/cycle_a.h", "#pragma once\n#include \"cycle_b.h\"\n");
  write_file(dir, "csrc/cycle_b.h", "#pragma once\n#include \"cycle_a.h\"\n");
  write_file(dir, "csrc/plain.cpp", "#include \"cycle_a.h\"\nint plain() { return 1; }\n");
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, kPython, &rc, &err);
  ASSERT_NE(rc, 2) << err;
  EXPECT_EQ(linted_units(j), (std::set<std::string>{"decoder.cpp", "ops.cpp"})) << j.dump(1);
}

// Read without running (--no-run-build): nvcc's flags come from a helper the
// static reader does not run. A target missing from them is unknown, not
// absent: the inconsistency is a note naming the expression, never an error.
TEST(BuildEnvironment, FlagsTheStaticReaderCannotDetermineAreUnknownNotAbsent) {
  const std::string dir = make_temp_dir() + "/unresolved";
  write_file(dir, "setup.py",
             "from setuptools import setup\n"
             "from torch.utils.cpp_extension import CUDAExtension, BuildExtension\n"
             // A helper of another package: nothing in the project says what it returns.
             "from _vendor_build_utils import append_nvcc_threads\n"
             "target = '-DTORCH_TARGET_VERSION=0x020a000000000000'\n"
             "setup(name='u', ext_modules=[CUDAExtension('u._C', ['csrc/ops.cpp', 'csrc/kernel.cu'],\n"
             "      extra_compile_args={'cxx': [target], 'nvcc': append_nvcc_threads([target, '-O3'])})],\n"
             "      cmdclass={'build_ext': BuildExtension})\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  // It calls a shim: a target matters to it (header-only code alone asks for none).
  write_file(dir, "csrc/kernel.cu",
             "#include <torch/csrc/inductor/aoti_torch/c/shim.h>\n#include <torch/csrc/stable/tensor.h>\n"
             "int kernel_marker() { return aoti_torch_dtype_float32(); }\n");
  std::vector<std::string> args = {"check", "--format", "json", "--no-cache", "--no-run-build"};
  for (const auto& h : headers()) args.push_back(h);
  args.push_back(dir);
  auto r = run_torchabi(args);
  ASSERT_NE(r.exit_code, 2) << r.err;
  bool inconsistency_noted = false;
  const nlohmann::json j = r.json();
  for (const auto& f : j["findings"]) {
    const std::string rule = f["rule"];
    if (rule == "build-target-version-inconsistent" || rule == "build-extension-without-target") {
      EXPECT_EQ(f["severity"], "note") << f.dump(1);
      inconsistency_noted |= f["message"].get<std::string>().find("could not be determined") != std::string::npos;
    }
    if (rule.starts_with("build-") || rule.starts_with("version-")) EXPECT_EQ(f["severity"], "note") << f.dump(1);
  }
  EXPECT_TRUE(inconsistency_noted) << r.out;
}

// An inactive branch that no configuration of the build compiles is a note;
// one that another platform's configuration compiles stays a warning.
TEST(BuildEnvironment, InactiveBranchesAreJudgedAgainstEveryShippedConfiguration) {
  const std::string dir = make_temp_dir() + "/branches";
  write_file(dir, "setup.py",
             "import os\n"
             "from setuptools import setup\n"
             "from torch.utils.cpp_extension import CppExtension, BuildExtension\n"
             "macros = [('DISABLE_DROPOUT', None)]\n"
             "if os.name == 'nt':\n"
             "    macros.append(('WITH_LEGACY_FALLBACK', None))\n"
             "setup(name='br', ext_modules=[CppExtension('br._C', ['csrc/ops.cpp'], define_macros=macros,\n"
             "      extra_compile_args=['-DTORCH_TARGET_VERSION=0x020a000000000000'])], cmdclass={'build_ext': BuildExtension})\n");
  write_file(dir, "csrc/ops.cpp",
             std::string(kStableOps) +
                 "#ifndef DISABLE_DROPOUT\n"
                 "#include <ATen/ATen.h>\n"
                 "at::Tensor dropout(const at::Tensor& t) { return t; }\n"
                 "#endif\n"
                 "#ifdef WITH_LEGACY_FALLBACK\n"
                 "#include <ATen/ATen.h>\n"
                 "at::Tensor fallback(const at::Tensor& t) { return t; }\n"
                 "#endif\n");
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ASSERT_NE(rc, 2) << err;
  int notes = 0, warnings = 0;
  for (const auto& f : j["findings"]) {
    if (f["rule"] != "source-inactive-branch") continue;
    const std::string message = f["message"];
    if (message.find("DISABLE_DROPOUT") != std::string::npos) {
      EXPECT_EQ(f["severity"], "note") << f.dump(1);
      ++notes;
    }
    if (message.find("WITH_LEGACY_FALLBACK") != std::string::npos) {
      EXPECT_EQ(f["severity"], "warning") << f.dump(1);
      ++warnings;
    }
  }
  EXPECT_GT(notes, 0) << j.dump(1);
  EXPECT_GT(warnings, 0) << j.dump(1);
}

// Returns the port of a listener on 127.0.0.1.
int listen_loopback(int* fd) {
  *fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(*fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::listen(*fd, 4);
  socklen_t len = sizeof addr;
  ::getsockname(*fd, reinterpret_cast<sockaddr*>(&addr), &len);
  return ntohs(addr.sin_port);
}

// A setup.py that tries what a hostile one would, and reports what worked
// through its extension's macros (the only channel out of the sandbox).
TEST(BuildEnvironment, AHostileSetupPyIsConfined) {
  int listener = -1;
  const int port = listen_loopback(&listener);
  ASSERT_GT(port, 0);
  const std::string dir = make_temp_dir() + "/hostile";
  const fs::path outside = fs::temp_directory_path() / ("torchabi-hostile-" + std::to_string(getpid()));
  write_file(dir, "setup.py",
             "import os, socket, sys\n"
             "from torch.utils.cpp_extension import CppExtension\n"
             "probes = {}\n"
             "def probe(name, fn):\n"
             "    try:\n"
             "        probes[name] = '1' if fn() else '0'\n"
             "    except Exception:\n"
             "        probes[name] = '0'\n"
             "def net():\n"
             "    socket.create_connection(('127.0.0.1', " + std::to_string(port) + "), timeout=3).sendall(b'leak')\n"
             "    return True\n"
             "def write(path):\n"
             "    with open(path, 'w') as f:\n"
             "        f.write('x')\n"
             "    return True\n"
             "probe('NET', net)\n"
             "probe('WRITE_TMP', lambda: write('" + outside.string() + "'))\n"
             "probe('WRITE_ORIGINAL', lambda: write('" + dir + "/leak'))\n"
             "probe('SEES_ORIGINAL', lambda: os.path.exists('" + dir + "/csrc/ops.cpp'))\n"
             "probe('PARENT_CWD', lambda: os.readlink('/proc/%d/cwd' % os.getppid()).startswith('" + dir + "'))\n"
             "probe('SHADOW', lambda: len(open('/etc/shadow').read()) > 0)\n"
             "probe('TOKEN', lambda: 'GITHUB_TOKEN' in os.environ or 'AWS_SECRET_ACCESS_KEY' in os.environ)\n"
             "probe('WRITE_COPY', lambda: write('own_file'))\n"
             "CppExtension('hostile._C', ['csrc/ops.cpp'],\n"
             "             define_macros=[('PROBE_' + k, v) for k, v in sorted(probes.items())])\n");
  write_file(dir, "csrc/ops.cpp", kStableOps);
  ::setenv("GITHUB_TOKEN", "ghp_hostile_test", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "aws_hostile_test", 1);
  int rc = -1;
  std::string err;
  const nlohmann::json j = check(dir, python_without_torch(make_temp_dir()), &rc, &err);
  ::unsetenv("GITHUB_TOKEN");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  ASSERT_NE(rc, 2) << err;
  const std::string flags = fact(project_subject(j), "extension hostile._C c++ flags");
  ASSERT_NE(flags.find("-DPROBE_WRITE_COPY=1"), std::string::npos) << j.dump(1);  // the script did run
  for (const char* probe : {"NET", "WRITE_TMP", "WRITE_ORIGINAL", "SEES_ORIGINAL", "PARENT_CWD", "TOKEN"})
    EXPECT_NE(flags.find(std::string("-DPROBE_") + probe + "=0"), std::string::npos) << probe << ": " << flags;
  if (geteuid() == 0) EXPECT_NE(flags.find("-DPROBE_SHADOW=0"), std::string::npos) << flags;
  pollfd p{listener, POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 100), 0) << "the listener received a connection";
  ::close(listener);
  EXPECT_FALSE(fs::exists(outside));
  EXPECT_FALSE(fs::exists(dir + "/leak"));
  EXPECT_NE(fact(project_subject(j), "build environment").find("sandboxed"), std::string::npos);
}

// The processes whose command line mentions `text`.
int processes_mentioning(const std::string& text) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    n += cmd.find(text) != std::string::npos;
  }
  return n;
}

// CI cancels a job with SIGTERM: the build script's processes die with
// torchabi and its scratch copy is removed.
TEST(BuildEnvironment, SigtermWhileABuildScriptRunsLeavesNothingBehind) {
  const std::string dir = make_temp_dir() + "/sleeps";
  write_file(dir, "setup.py",
             "import subprocess, time\n"
             "subprocess.Popen(['setsid', 'sleep', '987653'])\n"
             "time.sleep(3600)\n");
  // A temporary directory of its own: tests running next to it make
  // scratch directories too, and one of theirs must not be taken for ours.
  const std::string tmp = make_temp_dir() + "/tmp";
  fs::create_directories(tmp);
  auto scratch_dirs = [&] {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(tmp))
      if (e.path().filename().string().starts_with("torchabi-setup-")) out.insert(e.path().string());
    return out;
  };
  const std::set<std::string> before = scratch_dirs();
  std::vector<std::string> args = {torchabi_binary(), "check", "--python", kPython, "--build-timeout", "600", dir};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  std::vector<std::string> env_entries = {"TMPDIR=" + tmp};
  for (char** e = environ; *e; ++e)
    if (!std::string(*e).starts_with("TMPDIR=")) env_entries.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_entries) envp.push_back(e.data());
  envp.push_back(nullptr);
  ASSERT_EQ(::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()), 0);
  std::string scratch;
  for (int i = 0; i < 200 && scratch.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (const auto& d : scratch_dirs())
      if (!before.count(d) && processes_mentioning(d) > 0) scratch = d;
  }
  ASSERT_FALSE(scratch.empty()) << "the build script never started";
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // its setsid child is running too
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(fs::exists(scratch)) << scratch;
  EXPECT_EQ(processes_mentioning(scratch), 0);
  EXPECT_EQ(processes_mentioning("987653"), 0) << "the script's setsid child outlived torchabi";
}

}  // namespace
}  // namespace torchabi::e2e
