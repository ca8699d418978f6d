// `torchabi check DIR` on a project that builds its extension just-in-time
// with torch.utils.cpp_extension.load() / load_inline() and has no other build
// description: the calls are read, and the sources are linted with the flags
// torch's JIT build passes to each compiler.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "project_findings.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using lint::write_file;

std::string jit_sample() { return source_dir() + "/fixtures/projects/jit_load"; }

std::set<std::string> unit_names(const nlohmann::json& j) {
  std::set<std::string> units;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") units.insert(fs::path(s["path"].get<std::string>()).filename().string());
  return units;
}

// With --no-run-build the calls are read: what only running gives is a
// project-flag-unresolved note, never an absence.
void expect_unresolved_when_read(const std::string& dir) {
  auto s = run_torchabi({"check", "--no-run-build", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  ASSERT_NE(s.exit_code, 2) << s.err << s.out;
  bool unknown = false;
  const auto read = s.json();
  for (const auto& f : read["findings"]) unknown |= f["rule"] == "project-flag-unresolved";
  EXPECT_TRUE(unknown) << s.out;
}

// g++ gets extra_cflags (2.10), nvcc extra_cuda_cflags (2.9, not updated):
// reshape is fine in ops.cpp and too new in scale.cu, and the compilers
// disagree; extra_include_paths reach both. With the real headers these are
// the only findings (the stand-in library.h lacks STABLE_TORCH_LIBRARY, and
// no cpp_extension.py next to the stand-ins tells the default -std).
// The same flags whether the modules are imported with load() recorded
// (the default) or the calls are read (--no-run-build).
void expect_jit_sample_report(const RunResult& r, bool real_headers, bool recorded) {
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto j = r.json();
  const auto found = findings(j);
  const std::set<Found> expected = {{"version-api-after-target", "scale.cu", 19},
                                    {"build-target-version-inconsistent", "ops.py", 12}};
  if (real_headers) {
    EXPECT_EQ(found, expected) << j.dump(1);
  } else {
    for (const auto& f : expected) EXPECT_TRUE(found.count(f)) << std::get<1>(f) << " " << j.dump(1);
    EXPECT_FALSE(found.count({"version-api-after-target", "ops.cpp", 12})) << j.dump(1);
  }
  EXPECT_EQ(unit_names(j), (std::set<std::string>{"ops.cpp", "scale.cu"}));
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  const auto& facts = project->at("facts");
  EXPECT_EQ(project->at("path").get<std::string>(), jit_sample() + "/jit_sample/ops.py");
  EXPECT_EQ(facts.at("extension jit_sample_ops").get<std::string>(), "load() at jit_sample/ops.py:12, 2 sources, with CUDA");
  const std::string std_flag = real_headers ? " -std=c++20" : "";
  const std::string cxx = facts.at("extension jit_sample_ops c++ flags").get<std::string>();
  EXPECT_TRUE(cxx.starts_with("-DTORCH_EXTENSION_NAME=jit_sample_ops -DTORCH_API_INCLUDE_EXTENSION_H -I" + jit_sample() +
                              "/jit_sample/include -isystem "))
      << cxx;
  EXPECT_TRUE(cxx.ends_with(" -fPIC" + std_flag + " -DTORCH_TARGET_VERSION=0x020a000000000000 -O3")) << cxx;
  const std::string nvcc = facts.at("extension jit_sample_ops nvcc flags").get<std::string>();
  EXPECT_TRUE(nvcc.ends_with(" --compiler-options -fPIC -DTORCH_TARGET_VERSION=0x0209000000000000 -O3 --use_fast_math" +
                             std_flag))
      << nvcc;
  EXPECT_EQ(facts.at("configuration extension jit_sample_ops (cxx)").get<std::string>(),
            recorded ? "cpp_extension.load() recorded when its module was imported, line 12, 1 source"
                     : "cpp_extension.load() read, line 12, 1 source");
}

TEST(ProjectJitLoad, SampleIsLintedWithTheFlagsOfEachCompiler) {
  expect_jit_sample_report(
      run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), jit_sample()}), false, true);
  expect_jit_sample_report(
      run_torchabi({"check", "--no-run-build", "--format", "json", "--torch-include", lint::stand_ins(), jit_sample()}),
      false, false);
}

TEST(ProjectJitLoad, SampleWithTheRealTorchHeaders) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  expect_jit_sample_report(
      run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), jit_sample()}), true,
      true);
}

// A ComfyUI-style node: a pyproject.toml for the registry that declares no
// extension, and load_inline() with literal stable code; the sources are
// written as torch writes them and linted with extra_cflags.
TEST(ProjectJitLoad, LoadInlineNodeBehindARegistryPyproject) {
  const std::string dir = make_temp_dir() + "/node";
  write_file(dir, "pyproject.toml", "[project]\nname = \"comfyui-node\"\ndependencies = [\"torch>=2.10\"]\n");
  write_file(dir, "__init__.py",
             "from torch.utils import cpp_extension\n"
             "\n"
             "SRC = '''\n"
             "#include <torch/csrc/stable/ops.h>\n"
             "#include <torch/csrc/stable/tensor.h>\n"
             "torch::stable::Tensor flat(torch::stable::Tensor t) { return torch::stable::reshape(t, {t.numel()}); }\n"
             "'''\n"
             "_ops = cpp_extension.load_inline(\n"
             "    name='node_ops',\n"
             "    cpp_sources=SRC,\n"
             "    no_implicit_headers=True,\n"
             "    extra_cflags=['-DTORCH_TARGET_VERSION=0x0209000000000000'],\n"
             ")\n"
             "def helper(x):\n"
             "    return cpp_extension.load(name=x, sources=[x + '.cpp'])\n");
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto j = r.json();
  const auto found = findings(j);
  // Line 4 of main.cpp: the string starts with a newline.
  EXPECT_TRUE(found.count({"version-api-after-target", "main.cpp", 4})) << j.dump(1);
  // The helper's name and sources are computed: notes at its line, not absences.
  EXPECT_TRUE(found.count({"project-flag-unresolved", "__init__.py", 15})) << j.dump(1);
  EXPECT_EQ(unit_names(j), (std::set<std::string>{"main.cpp"}));
  const auto& facts = project_subject(j)->at("facts");
  const std::string written = facts.at("extension node_ops sources").get<std::string>();
  const size_t at = written.find('/');
  ASSERT_NE(at, std::string::npos) << written;
  EXPECT_TRUE(written.ends_with("/node_ops/main.cpp")) << written;
  // The scratch directory is gone once check is done.
  EXPECT_FALSE(fs::exists(written.substr(at))) << written;
}

// ComfyUI-FeatherOps' shape: load() in a helper of a package's utils module,
// its sources from a comprehension over the caller's arguments and its flags
// from `common.copy()`; each kernel module calls the helper on import, one
// after importing a module the interpreter lacks. Reading leaves all of it
// unknown; importing the modules records each call, so both extensions are
// linted with their own flags. A JIT-built library is built by the torch
// that loads it: no target is asked of it.
TEST(ProjectJitLoad, ArgumentsOfAHelperAreRecordedWhenItsCallersAreImported) {
  const std::string dir = make_temp_dir() + "/feather";
  write_file(dir, "pkg/__init__.py", "");
  write_file(dir, "pkg/kern/__init__.py", "");
  write_file(dir, "pkg/kern/utils.py",
             "import os\n"
             "from torch.utils import cpp_extension\n"
             "import not_installed_sdk\n"
             "SDK = os.path.dirname(not_installed_sdk.__file__)\n"
             "def load_ext(name: str, cur_dir: str, files: str | list[str], extra=None) -> None:\n"
             "    files = [files] if isinstance(files, str) else files\n"
             "    common = ['-O3', '-DFEATHER_COMMON']\n"
             "    cflags = common.copy()\n"
             "    if extra:\n"
             "        cflags.extend(extra)\n"
             "    cpp_extension.load(\n"
             "        name=name,\n"
             "        sources=[os.path.join(cur_dir, f) for f in files],\n"
             "        extra_cflags=cflags,\n"
             "        is_python_module=False,\n"
             "    )\n");
  write_file(dir, "pkg/kern/gemm.py",
             "import os\nimport torch._inductor.config\nfrom .utils import load_ext\n"
             "load_ext('gemm_ext', os.path.dirname(__file__), 'gemm.cpp', ['-DGEMM_ONLY'])\n");
  write_file(dir, "pkg/kern/conv.py",
             "import os\nimport torch\nfrom .utils import load_ext\nload_ext('conv_ext', os.path.dirname(__file__), ['conv.cpp'])\n"
             "def op(x: torch.Tensor | None):\n    return x\n");
  for (const char* name : {"gemm", "conv"})
    write_file(dir, std::string("pkg/kern/") + name + ".cpp",
               "#include <torch/csrc/stable/library.h>\n#include <torch/csrc/stable/tensor.h>\n"
               "torch::stable::Tensor " + std::string(name) + "(torch::stable::Tensor t) { return t; }\n");
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  ASSERT_NE(r.exit_code, 2) << r.err << r.out;
  const auto j = r.json();
  EXPECT_EQ(unit_names(j), (std::set<std::string>{"gemm.cpp", "conv.cpp"})) << j.dump(1);
  for (const auto& f : j["findings"]) {
    // Nothing is left unknown, and no target is asked of a JIT build.
    EXPECT_NE(f["rule"], "project-flag-unresolved") << f.dump(1);
    EXPECT_NE(f["rule"], "build-extension-without-target") << f.dump(1);
    if (f["rule"] == "build-target-version-missing") {
      EXPECT_EQ(f["severity"], "note") << f.dump(1);
    }
  }
  const auto& facts = project_subject(j)->at("facts");
  EXPECT_EQ(facts.at("extension gemm_ext").get<std::string>(), "load() at pkg/kern/utils.py:11, 1 source");
  EXPECT_EQ(facts.at("extension conv_ext").get<std::string>(), "load() at pkg/kern/utils.py:11, 1 source");
  EXPECT_NE(facts.at("extension gemm_ext c++ flags").get<std::string>().find("-O3 -DFEATHER_COMMON -DGEMM_ONLY"),
            std::string::npos)
      << facts.dump(1);
  EXPECT_EQ(facts.at("extension conv_ext c++ flags").get<std::string>().find("GEMM_ONLY"), std::string::npos);
  EXPECT_EQ(facts.at("configuration extension gemm_ext (cxx)").get<std::string>(),
            "cpp_extension.load() recorded when its module was imported, line 11, 1 source");
  EXPECT_NE(facts.at("given to the imported modules: module").get<std::string>().find("not_installed_sdk"),
            std::string::npos)
      << facts.dump(1);

  // --no-run-build reads the calls: the helper's values are unknown, and say so.
  expect_unresolved_when_read(dir);
}

// witwin-maxwell's shape: load() in `build_extension(*, verbose=False)`,
// which the package calls on first use, not on import; its sources from a
// comprehension over a function's Path joins, extra_cflags an `os.name`
// conditional, extra_cuda_cflags literal -D entries next to a starred call.
// The package imports another distribution's part of its namespace package
// and computes a constant from it. Reading leaves all of it unknown (and
// -DUSE_CUDA absent); importing the module and calling the builder records
// the real values: nothing is unresolved and nothing rests on a guess.
TEST(ProjectJitLoad, AFunctionThatBuildsOnFirstUseIsCalledWithLoadRecorded) {
  const std::string dir = make_temp_dir() + "/lazy";
  write_file(dir, "pyproject.toml", "[project]\nname = \"ns-lazy\"\ndependencies = [\"torch>=2.10\", \"ns-core\"]\n");
  write_file(dir, "ns/lazy/__init__.py",
             "from ns.core import EPS\nSCALE = 2.0 * EPS\nfrom .build import build_extension\n");
  write_file(dir, "ns/lazy/build.py",
             "import os\n"
             "import torch\n"
             "from pathlib import Path\n"
             "from torch.utils.cpp_extension import load\n"
             "def root():\n"
             "    return Path(__file__).resolve().parent\n"
             "def sources():\n"
             "    return [root() / 'ops.cpp', root() / 'kernels' / 'stream.cu']\n"
             // For the GPU of the machine that builds: only running tells which.
             "def _gencode():\n"
             "    major, minor = torch.cuda.get_device_capability()\n"
             "    return [f'-gencode=arch=compute_{major}{minor},code=sm_{major}{minor}']\n"
             "def build_extension(*, verbose=False):\n"
             "    return load(\n"
             "        name='lazy_ops',\n"
             "        sources=[str(p) for p in sources()],\n"
             "        extra_cflags=(['/O2', '/DTORCH_TARGET_VERSION=0x020a000000000000'] if os.name == 'nt'\n"
             "                      else ['-O3', '-DTORCH_TARGET_VERSION=0x020a000000000000']),\n"
             "        extra_cuda_cflags=['-DTORCH_TARGET_VERSION=0x020a000000000000', '-DUSE_CUDA', *_gencode()],\n"
             "        verbose=verbose,\n"
             "    )\n");
  // A script's main() that serves forever after load(): stopped, its call kept.
  write_file(dir, "ns/lazy/serve.py",
             "from torch.utils.cpp_extension import load\n"
             "def main():\n"
             "    load(name='served_ops', sources=['ns/lazy/served.cpp'], extra_cflags=['-DTORCH_TARGET_VERSION=0x020a000000000000'])\n"
             "    while True:\n"
             "        pass\n");
  write_file(dir, "ns/lazy/served.cpp",
             "#include <torch/csrc/stable/library.h>\nint served() { return 0; }\n");
  write_file(dir, "ns/lazy/ops.cpp",
             "#include <torch/csrc/stable/library.h>\n#include <torch/csrc/stable/tensor.h>\n"
             "torch::stable::Tensor ident(torch::stable::Tensor t) { return t; }\n");
  write_file(dir, "ns/lazy/kernels/stream.cu",
             "#include <torch/csrc/inductor/aoti_torch/c/shim.h>\n"
             "void* stream(int32_t device) {\n"
             "  void* s = nullptr;\n"
             "  aoti_torch_get_current_cuda_stream(device, &s);\n"
             "  return s;\n"
             "}\n");
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  ASSERT_NE(r.exit_code, 2) << r.err << r.out;
  const auto j = r.json();
  EXPECT_EQ(unit_names(j), (std::set<std::string>{"ops.cpp", "stream.cu", "served.cpp"})) << j.dump(1);
  for (const auto& f : j["findings"]) {
    EXPECT_NE(f["rule"], "project-flag-unresolved") << f.dump(1);
    EXPECT_NE(f["rule"], "build-target-version-missing") << f.dump(1);
    EXPECT_NE(f["rule"], "build-api-hidden-by-configuration") << f.dump(1);
  }
  const auto& facts = project_subject(j)->at("facts");
  EXPECT_EQ(facts.at("extension lazy_ops").get<std::string>(), "load() at ns/lazy/build.py:13, 2 sources, with CUDA");
  EXPECT_EQ(facts.at("extension served_ops").get<std::string>(), "load() at ns/lazy/serve.py:3, 1 source");
  EXPECT_NE(facts.at("extension lazy_ops nvcc flags").get<std::string>().find("-DTORCH_TARGET_VERSION=0x020a000000000000 -DUSE_CUDA"),
            std::string::npos)
      << facts.dump(1);
  EXPECT_NE(facts.at("extension lazy_ops c++ flags").get<std::string>().find("-O3 -DTORCH_TARGET_VERSION=0x020a000000000000"),
            std::string::npos)
      << facts.dump(1);
  EXPECT_NE(facts.at("given to the imported modules: module").get<std::string>().find("ns.core (not installed: another "
                                                                                    "distribution's part of the namespace "
                                                                                    "package ns"),
            std::string::npos)
      << facts.dump(1);

  // Read without running: the builder's values are unknown, and say so.
  expect_unresolved_when_read(dir);
}

// A package whose classes derive from two stand-in torch.nn bases (a mixin
// next to a subclass of nn.Linear) imports, so the load() after them is
// recorded with the flag it adds under a condition; one that raises before
// its load() says so, and its call is read.
TEST(ProjectJitLoad, ModulesDerivingFromTorchNnImportAndOnesThatRaiseSaySo) {
  const std::string dir = make_temp_dir() + "/nnpkg";
  write_file(dir, "nnpkg/__init__.py", "from . import layers, ops\n");
  write_file(dir, "nnpkg/layers.py",
             "import torch\nfrom torch import nn\n"
             "class QLinear(nn.Linear):\n    pass\n"
             "class QLazy(torch.nn.modules.lazy.LazyModuleMixin, QLinear):\n    pass\n");
  write_file(dir, "nnpkg/ops.py",
             "import os\nfrom torch.utils.cpp_extension import load\nfrom .layers import QLazy\n"
             "flags = ['-O2']\n"
             "if QLazy is not None:\n    flags.append('-DTORCH_TARGET_VERSION=0x020a000000000000')\n"
             "ops = load(name='nn_ops', sources=[os.path.join(os.path.dirname(__file__), 'ops.cpp')], extra_cflags=flags)\n");
  write_file(dir, "nnpkg/ops.cpp", "#include <torch/csrc/stable/library.h>\nint nn_ops() { return 0; }\n");
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  ASSERT_NE(r.exit_code, 2) << r.err << r.out;
  auto j = r.json();
  auto facts = project_subject(j)->at("facts");
  EXPECT_NE(facts.at("extension nn_ops c++ flags").get<std::string>().find("-DTORCH_TARGET_VERSION=0x020a000000000000"),
            std::string::npos)
      << facts.dump(1);
  EXPECT_NE(facts.at("build description").get<std::string>().find("imported"), std::string::npos) << facts.dump(1);

  write_file(dir, "nnpkg/layers.py", "raise RuntimeError('needs a GPU')\n");
  r = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  ASSERT_NE(r.exit_code, 2) << r.err << r.out;
  j = r.json();
  bool said = false;
  for (const auto& f : j["findings"])
    said |= f["message"].get<std::string>().find("raised (") != std::string::npos &&
            f["message"].get<std::string>().find("needs a GPU") != std::string::npos &&
            f["message"].get<std::string>().find("the calls were read instead") != std::string::npos;
  EXPECT_TRUE(said) << j["findings"].dump(1);
}

// An untargeted library built by load() is compiled by the torch that
// loads it, which has what it imports: `torch>=2.10` is not below it. The
// same sources shipped by setup.py need 2.13 (2.14.1's headers import
// torch_exception_get_what), and the requirement is an error there.
TEST(ProjectJitLoad, ARequirementIsNotBelowWhatAJitLibraryImports) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  for (const bool jit : {true, false}) {
    const std::string dir = make_temp_dir() + "/req";
    write_file(dir, "pyproject.toml", "[project]\nname = \"req\"\ndependencies = [\"torch>=2.10\"]\n");
    if (jit)
      write_file(dir, "req/_ops.py",
                 "from torch.utils.cpp_extension import load\n"
                 "def build():\n"
                 "    return load(name='req_ops', sources=['csrc/ops.cpp'], is_python_module=False)\n");
    else
      write_file(dir, "setup.py",
                 "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CppExtension\n"
                 "setup(ext_modules=[CppExtension('req._C', ['csrc/ops.cpp'])], cmdclass={'build_ext': BuildExtension})\n");
    write_file(dir, "csrc/ops.cpp",
               "#include <torch/csrc/stable/library.h>\n#include <torch/csrc/stable/tensor.h>\n"
               "torch::stable::Tensor ident(torch::stable::Tensor t) { return t; }\n"
               "STABLE_TORCH_LIBRARY(req, m) { m.def(\"ident(Tensor t) -> Tensor\"); }\n"
               "STABLE_TORCH_LIBRARY_IMPL(req, CPU, m) { m.impl(\"ident\", TORCH_BOX(&ident)); }\n");
    auto r = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), dir});
    ASSERT_NE(r.exit_code, 2) << r.err << r.out;
    const auto j = r.json();
    EXPECT_EQ(findings(j).count({"build-requirement-below-target", "pyproject.toml", 3}), jit ? 0u : 1u)
        << (jit ? "load(): " : "setup.py: ") << j.dump(1);
  }
}

// Issue 49: an untargeted load() library is compiled by the user's torch,
// which the requirement chooses: code that calls torch::stable::reshape and
// contiguous (2.10) under `torch>=2.6` does not compile on 2.6.
// A warning at the requirement naming the APIs; none under `torch>=2.10`.
TEST(ProjectJitLoad, ARequirementBelowWhatAJitLibraryCallsIsAWarning) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  for (const std::string requirement : {"torch>=2.6", "torch>=2.10"}) {
    const std::string dir = make_temp_dir() + "/jitreq";
    write_file(dir, "pyproject.toml", "[project]\nname = \"jitreq\"\ndependencies = [\"" + requirement + "\"]\n");
    write_file(dir, "jitreq/_ops.py",
               "from torch.utils.cpp_extension import load\n"
               "def build():\n"
               "    return load(name='jitreq_ops', sources=['csrc/ops.cpp'], is_python_module=False)\n");
    write_file(dir, "csrc/ops.cpp",
               "#include <torch/csrc/stable/library.h>\n#include <torch/csrc/stable/ops.h>\n"
               "#include <torch/csrc/stable/tensor.h>\n"
               "torch::stable::Tensor flat(torch::stable::Tensor t) {\n"
               "  return torch::stable::reshape(torch::stable::contiguous(t), {t.numel()});\n}\n"
               "STABLE_TORCH_LIBRARY(jitreq, m) { m.def(\"flat(Tensor t) -> Tensor\"); }\n"
               "STABLE_TORCH_LIBRARY_IMPL(jitreq, CPU, m) { m.impl(\"flat\", TORCH_BOX(&flat)); }\n");
    auto r = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), dir});
    ASSERT_NE(r.exit_code, 2) << r.err << r.out;
    const auto j = r.json();
    const bool below = requirement == "torch>=2.6";
    EXPECT_EQ(findings(j).count({"build-requirement-below-jit-floor", "pyproject.toml", 3}), below ? 1u : 0u)
        << requirement << j.dump(1);
    EXPECT_EQ(findings(j).count({"build-requirement-below-target", "pyproject.toml", 3}), 0u) << j.dump(1);
    for (const auto& f : j["findings"]) {
      if (f["rule"] != "build-requirement-below-jit-floor") continue;
      EXPECT_EQ(f["severity"], "warning");
      const std::string m = f["message"];
      EXPECT_NE(m.find("torch::stable::contiguous, torch::stable::reshape"), std::string::npos) << m;
      EXPECT_NE(m.find("2.10"), std::string::npos) << m;
    }
  }
}

// A module whose only load() is not torch's: nothing to check.
TEST(ProjectJitLoad, OtherFunctionsNamedLoadAreNotExtensions) {
  const std::string dir = make_temp_dir();
  write_file(dir, "model.py", "import json, torch\nw = torch.load('w.pt')\ncfg = json.load(open('c.json'))\n");
  auto r = run_torchabi({"check", "--torch-include", lint::stand_ins(), dir});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("nothing to check"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace torchabi::e2e
