// scripts/build-rules.py on an include tree of our own, written to exercise
// what the real headers do and may do: versions guarded with >=, <, #else,
// #elif and !( ), build options nested inside version guards, include
// guards, attributes, comments and function pointers inside prototypes, and
// C++ declarations that are no part of the C shim.
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

const char* kVersionH = R"(#pragma once
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 12
#define TORCH_VERSION_PATCH 3
)";

const char* kStableVersionH = R"(#pragma once
#include <torch/headeronly/version.h>
#ifdef TORCH_TARGET_VERSION
#define TORCH_FEATURE_VERSION TORCH_TARGET_VERSION
#else
#define TORCH_FEATURE_VERSION (0ULL + 2)
#endif
#define TORCH_VERSION_2_10_0 (((0ULL + 2) << 56) | ((0ULL + 10) << 48))
#define TORCH_VERSION_2_11_0 (((0ULL + 2) << 56) | \
                              ((0ULL + 11) << 48))
#define TORCH_VERSION_2_12_0 (((0ULL + 2) << 56) | ((0ULL + 12) << 48))
#define TORCH_VERSION_2_99_0 (((0ULL + 2) << 56) | ((0ULL + 99) << 48))
)";

const char* kShimH = R"(#ifndef FAKE_SHIM_H
#define FAKE_SHIM_H
#include <torch/csrc/stable/version.h>
/* a block comment with a declaration inside: void not_real(); */
#ifdef __cplusplus
extern "C" {
#endif
struct FakeOpaque;
using FakeHandle = FakeOpaque*;
AOTI_TORCH_EXPORT AOTITorchError fake_base(FakeHandle h, int64_t* out /* an out-param */);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
AOTI_TORCH_EXPORT int32_t fake_210();
#if defined(USE_CUDA)
AOTI_TORCH_EXPORT AOTITorchError fake_210_cuda(void* stream);
#endif
#elif defined(FAKE_OPTION)
AOTI_TORCH_EXPORT void fake_old_optional();
#else
AOTI_TORCH_EXPORT void fake_old(void);
#endif
#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_11_0
#else
[[deprecated("use x; or y")]]
AOTI_TORCH_EXPORT AOTITorchError
fake_211(
    void (*callback)(void* data, int64_t n), // called once
    const char** names);
#endif
#if !(TORCH_FEATURE_VERSION < TORCH_VERSION_2_12_0) && AT_FAKE_ENABLED()
AOTI_TORCH_EXPORT AOTITorchError fake_212_config(const double* x, const int32_t& n);
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_99_0
AOTI_TORCH_EXPORT void fake_future();
#endif
#if 0
AOTI_TORCH_EXPORT void fake_never();
#endif
typedef void (*FakeCallback)(int64_t begin, void* ctx);
AOTI_TORCH_EXPORT void fake_split(int32_t a
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
    , int32_t b
#endif
);
#ifdef __cplusplus
} // extern "C"
namespace fake {
AOTI_TORCH_EXPORT void fake_cxx_only();
}
template <typename T>
int32_t fake_dtype() = delete;
inline int32_t fake_inline() { return 1; }
#endif
#endif // FAKE_SHIM_H
)";

const char* kCudaH = R"(#pragma once
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#ifdef __cplusplus
extern "C" {
#endif
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_cuda_fake(AtenTensorHandle self, AtenTensorHandle* ret0);
#ifdef __cplusplus
} // extern "C"
#endif
)";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct ScriptRun {
  int status = -1;
  std::string log;
  std::map<std::string, std::vector<std::string>> rows;
};

ScriptRun build_rules(const std::string& extra_args) {
  std::string dir = (fs::temp_directory_path() / "torchabi-build-rules-XXXXXX").string();
  if (!::mkdtemp(dir.data())) return {};
  const fs::path inc = fs::path(dir) / "include";
  write(inc / "torch/headeronly/version.h", kVersionH);
  write(inc / "torch/csrc/stable/version.h", kStableVersionH);
  write(inc / "torch/csrc/inductor/aoti_torch/c/shim.h", kShimH);
  write(inc / "torch/csrc/inductor/aoti_torch/generated/c_shim_cuda.h", kCudaH);
  const std::string out = dir + "/out.tsv", log = dir + "/log";
  const std::string cmd = "python3 '" + std::string(TORCHABI_SOURCE_DIR) + "/scripts/build-rules.py' --torch-include '" +
                          inc.string() + "' --no-shared -o '" + out + "' " + extra_args + " >'" + log + "' 2>&1";
  ScriptRun r;
  r.status = std::system(cmd.c_str());
  r.log = read(log);
  std::ifstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, '\t');) cols.push_back(c);
    r.rows[cols[0]] = cols;
  }
  fs::remove_all(dir);
  return r;
}

// since, kind, prototype, backend, library, build_condition of one row.
std::vector<std::string> facts(const ScriptRun& r, const std::string& name) {
  auto it = r.rows.find(name);
  if (it == r.rows.end()) return {"(missing)"};
  const auto& c = it->second;
  return {c.at(1), c.at(2), c.at(5), c.at(6), c.at(7), c.at(8)};
}

using V = std::vector<std::string>;

TEST(BuildRulesScript, DatesEachDeclarationByThePreprocessorBranchesAroundIt) {
  ScriptRun r = build_rules("");
  ASSERT_EQ(r.status, 0) << r.log;
  const std::string shim = "torch/csrc/inductor/aoti_torch/c/shim.h";
  EXPECT_EQ(facts(r, "fake_base"),
            (V{"<=2.9", "function", "AOTITorchError fake_base(FakeHandle h, int64_t * out)", "common", "libtorch_cpu", "-"}));
  EXPECT_EQ(r.rows["fake_base"].at(4), shim);
  EXPECT_EQ(facts(r, "fake_210"), (V{"2.10.0", "function", "int32_t fake_210()", "common", "libtorch_cpu", "-"}));
  // A USE_CUDA guard inside a common header: CUDA's, from libtorch_cuda.
  EXPECT_EQ(facts(r, "fake_210_cuda"), (V{"2.10.0", "function", "AOTITorchError fake_210_cuda(void * stream)", "cuda",
                                          "libtorch_cuda", "USE_CUDA"}));
  // #elif / #else of a >= guard: older targets only, so baseline (and noted as hidden later).
  EXPECT_EQ(facts(r, "fake_old_optional"),
            (V{"<=2.9", "function", "void fake_old_optional()", "common", "libtorch_cpu", "FAKE_OPTION"}));
  EXPECT_EQ(facts(r, "fake_old"), (V{"<=2.9", "function", "void fake_old()", "common", "libtorch_cpu", "!FAKE_OPTION"}));
  EXPECT_NE(r.log.find("fake_old is hidden again from TORCH_FEATURE_VERSION 2.10.0"), std::string::npos) << r.log;
  // The #else of a < guard; attribute, comments and a function pointer in the prototype.
  EXPECT_EQ(facts(r, "fake_211"), (V{"2.11.0", "function",
                                     "AOTITorchError fake_211(void (*)(void *, int64_t) callback, const char ** names)",
                                     "common", "libtorch_cpu", "-"}));
  EXPECT_EQ(facts(r, "fake_212_config"),
            (V{"2.12.0", "function", "AOTITorchError fake_212_config(const double * x, const int32_t & n)", "common",
               "libtorch_cpu", "AT_FAKE_ENABLED()"}));
  // Types, each as one declaration.
  EXPECT_EQ(facts(r, "FakeOpaque"), (V{"<=2.9", "type", "struct FakeOpaque", "common", "libtorch_cpu", "-"}));
  EXPECT_EQ(facts(r, "FakeHandle"), (V{"<=2.9", "type", "using FakeHandle = FakeOpaque *", "common", "libtorch_cpu", "-"}));
  EXPECT_EQ(facts(r, "FakeCallback"),
            (V{"<=2.9", "type", "using FakeCallback = void (*)(int64_t, void *)", "common", "libtorch_cpu", "-"}));
  // A generated per-backend header.
  EXPECT_EQ(facts(r, "aoti_torch_cuda_fake"),
            (V{"<=2.9", "function", "AOTITorchError aoti_torch_cuda_fake(AtenTensorHandle self, AtenTensorHandle * ret0)",
               "cuda", "libtorch_cuda", "USE_CUDA"}));
  // Not C shim functions: C++ names, templates, inline definitions, #if 0, comments.
  for (const char* absent : {"fake_cxx_only", "fake_dtype", "fake_inline", "fake_never", "not_real"})
    EXPECT_EQ(r.rows.count(absent), 0u) << absent;
  // A parameter under its own guard: one prototype cannot say that, so it is pointed out.
  EXPECT_NE(r.log.find("parts of fake_split's declaration are in other #if branches"), std::string::npos) << r.log;
  // Newer than rules/api/releases.yaml knows: left out, and said so.
  EXPECT_EQ(r.rows.count("fake_future"), 0u);
  EXPECT_NE(r.log.find("fake_future (2.99.0) is newer than rules/api/releases.yaml's latest"), std::string::npos) << r.log;
}

TEST(BuildRulesScript, KeepNewerWritesFunctionsBeyondTheKnownReleases) {
  ScriptRun r = build_rules("--keep-newer");
  ASSERT_EQ(r.status, 0) << r.log;
  EXPECT_EQ(facts(r, "fake_future"), (V{"2.99.0", "function", "void fake_future()", "common", "libtorch_cpu", "-"}));
}

TEST(BuildRulesScript, AnUnbalancedConditionalIsOneLineNamingTheHeader) {
  std::string dir = (fs::temp_directory_path() / "torchabi-build-rules-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  const fs::path inc = fs::path(dir) / "include";
  write(inc / "torch/headeronly/version.h", kVersionH);
  write(inc / "torch/csrc/stable/version.h", kStableVersionH);
  write(inc / "torch/csrc/inductor/aoti_torch/c/shim.h", "extern \"C\" {\n#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n}\n");
  const std::string cmd = "python3 '" + std::string(TORCHABI_SOURCE_DIR) + "/scripts/build-rules.py' --torch-include '" +
                          inc.string() + "' --no-shared -o '" + dir + "/out.tsv' >'" + dir + "/log' 2>&1";
  EXPECT_NE(std::system(cmd.c_str()), 0);
  const std::string log = read(fs::path(dir) / "log");
  EXPECT_NE(log.find("torch/csrc/inductor/aoti_torch/c/shim.h"), std::string::npos) << log;
  EXPECT_NE(log.find("unterminated #if"), std::string::npos) << log;
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
  EXPECT_FALSE(fs::exists(fs::path(dir) / "out.tsv"));
  fs::remove_all(dir);
}

TEST(BuildRulesScript, WithoutHeadersTheSharedDataIsAddedToTheExistingCatalog) {
  std::string dir = (fs::temp_directory_path() / "torchabi-build-rules-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  const fs::path shared = fs::path(dir) / "shared";
  write(shared / "shim_function_versions.txt", "aoti_torch_xpu_fake: TORCH_VERSION_2_11_0\nfake_kept: TORCH_VERSION_2_10_0\n");
  write(shared / "libtorch_stable_exports.syms", "{\n  global:\n    aoti_torch_xpu_fake;\n  local: *;\n};\n");
  write(shared / "stable_c_abi_functions.tsv", "# name\tsince\theader\tprototype\n");
  const std::string kept = "fake_kept\t2.10.0\tfunction\tno\tshim.h\tvoid fake_kept()\tcommon\tlibtorch_cpu\t-";
  write(fs::path(dir) / "out.tsv", "# an earlier catalog\n" + kept + "\n");
  const std::string cmd = "python3 '" + std::string(TORCHABI_SOURCE_DIR) + "/scripts/build-rules.py' --torch-include '" +
                          dir + "/no-such-include' --shared '" + shared.string() + "' -o '" + dir + "/out.tsv' >'" +
                          dir + "/log' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read(fs::path(dir) / "log");
  const std::string out = read(fs::path(dir) / "out.tsv");
  EXPECT_NE(out.find(kept + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("aoti_torch_xpu_fake\t2.11.0\tfunction\tyes\t-\t-\txpu\tlibtorch_xpu\tUSE_XPU\n"), std::string::npos)
      << out;
  fs::remove_all(dir);
}

}  // namespace
