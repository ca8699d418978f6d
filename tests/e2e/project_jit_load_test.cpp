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

// g++ gets extra_cflags (2.10), nvcc extra_cuda_cflags (2.9, not updated):
// reshape is fine in ops.cpp and too new in scale.cu, and the compilers
// disagree; extra_include_paths reach both. With the real headers these are
// the only findings (the stand-in library.h lacks STABLE_TORCH_LIBRARY, and
// no cpp_extension.py next to the stand-ins tells the default -std).
void expect_jit_sample_report(const RunResult& r, bool real_headers) {
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
            "cpp_extension.load() read, line 12, 1 source");
}

TEST(ProjectJitLoad, SampleIsLintedWithTheFlagsOfEachCompiler) {
  expect_jit_sample_report(
      run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), jit_sample()}), false);
}

TEST(ProjectJitLoad, SampleWithTheRealTorchHeaders) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  expect_jit_sample_report(
      run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), jit_sample()}), true);
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
