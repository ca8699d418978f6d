// The build-as-configured rules against Debian's real PyTorch 2.14.1 headers,
// each checked against what g++ does with the same flags: the imports it
// puts in the object (nm), the errors it stops on.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "real_torch.h"

namespace torchabi::e2e::lint {
namespace {

using nlohmann::json;

std::string real_include() { return test::real_torch_include(); }

// g++ with `flags` on `cpp`; the exit code, and the object's undefined
// symbols when it compiled.
struct Gxx {
  int exit_code = -1;
  std::string output;
  std::string undefined;
};

Gxx gxx(const std::string& cpp, const std::vector<std::string>& flags) {
  Gxx g;
  const std::string obj = cpp + ".o";
  std::string cmd = "g++ -std=c++17 -O2 -fPIC -c '" + cpp + "' -o '" + obj + "' -I'" + real_include() + "'";
  for (const auto& f : flags) cmd += " " + f;
  cmd += " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  while (p && fgets(buf.data(), buf.size(), p)) g.output += buf.data();
  g.exit_code = p ? pclose(p) : -1;
  if (g.exit_code != 0) return g;
  FILE* nm = popen(("nm -u --format=just-symbols '" + obj + "'").c_str(), "r");
  while (nm && fgets(buf.data(), buf.size(), nm)) g.undefined += buf.data();
  if (nm) pclose(nm);
  return g;
}

RunResult lint_real(const std::string& cpp, const std::vector<std::string>& flags) {
  std::vector<std::string> args = {cpp, "--", "-std=c++17", "-I" + real_include()};
  args.insert(args.end(), flags.begin(), flags.end());
  return lint_json(args);
}

const char* kOps = R"(#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

using torch::stable::Tensor;

Tensor fresh_copy(const Tensor& x) {
  Tensor out = torch::stable::empty_like(x);
  torch::stable::copy_(out, x);
  return out;
}

STABLE_TORCH_LIBRARY(rt_ops, m) { m.def("fresh_copy(Tensor x) -> Tensor"); }
STABLE_TORCH_LIBRARY_IMPL(rt_ops, CPU, m) { m.impl("fresh_copy", TORCH_BOX(&fresh_copy)); }
)";

TEST(BuildConfigReal, WithoutATargetTheLibraryNeedsTheHeadersNewestShims) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cpp = write_file(make_temp_dir(), "ops.cpp", kOps);
  auto r = lint_real(cpp, {"-DTORCH_STABLE_ONLY"});
  auto j = r.json();
  const auto* w = finding_at(j, "build-target-version-missing", 1, 1);
  ASSERT_NE(w, nullptr) << r.out;
  EXPECT_EQ((*w)["severity"], "warning");
  // 2.14.1's error path (STABLE_TORCH_ERROR_CODE_CHECK) calls the 2.13 shims
  // directly once TORCH_FEATURE_VERSION allows it.
  EXPECT_NE((*w)["message"].get<std::string>().find("torch_exception_get_what"), std::string::npos) << (*w)["message"];
  const std::string help = (*w)["help"];
  const size_t at = help.find("-DTORCH_TARGET_VERSION=");
  ASSERT_NE(at, std::string::npos) << help;
  const std::string flag = help.substr(at, help.find(' ', at) - at);
  // g++ agrees: without the target the object imports the 2.13 shim, with the
  // flag lint proposes it does not, and lint has nothing more to say.
  const Gxx untargeted = gxx(cpp, {"-DTORCH_STABLE_ONLY"});
  ASSERT_EQ(untargeted.exit_code, 0) << untargeted.output;
  EXPECT_NE(untargeted.undefined.find("torch_exception_get_what\n"), std::string::npos) << untargeted.undefined;
  const Gxx targeted = gxx(cpp, {"-DTORCH_STABLE_ONLY", flag});
  ASSERT_EQ(targeted.exit_code, 0) << targeted.output;
  EXPECT_EQ(targeted.undefined.find("torch_exception_get_what"), std::string::npos) << targeted.undefined;
  auto fixed = lint_real(cpp, {"-DTORCH_STABLE_ONLY", flag});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out;
  EXPECT_TRUE(findings_of(fixed.json(), "build-target-version-missing").empty()) << fixed.out;
}

TEST(BuildConfigReal, TheCudaStreamShimNeedsUseCuda) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cpp = write_file(make_temp_dir(), "stream.cpp", R"(#include <torch/csrc/inductor/aoti_torch/c/shim.h>

void* current_stream(int32_t device) {
  void* stream = nullptr;
  aoti_torch_get_current_cuda_stream(device, &stream);
  return stream;
}
)");
  const std::string target = "-DTORCH_TARGET_VERSION=0x020a000000000000";
  EXPECT_NE(gxx(cpp, {target}).exit_code, 0);  // the failure the rule explains
  auto r = lint_real(cpp, {target});
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  const auto* e = finding_at(j, "build-api-hidden-by-configuration", 5, 3);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_NE((*e)["message"].get<std::string>().find("<torch/csrc/inductor/aoti_torch/c/shim.h> only in `#ifdef USE_CUDA`"),
            std::string::npos)
      << (*e)["message"];
  EXPECT_TRUE(findings_of(j, "source-parse-incomplete").empty()) << r.out;
  EXPECT_EQ(gxx(cpp, {target, "-DUSE_CUDA"}).exit_code, 0);
  auto ok = lint_real(cpp, {target, "-DUSE_CUDA"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_TRUE(ok.json()["findings"].empty()) << ok.out;
}

TEST(BuildConfigReal, AnApiTheseHeadersDoNotHave) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cpp = write_file(make_temp_dir(), "py.cpp", R"(#include <torch/csrc/stable/pyobject.h>
#include <torch/csrc/stable/tensor.h>

bool is_tensor(void* obj) { return torch::stable::is_tensor_pyobject(obj); }
)");
  const std::string target = "-DTORCH_TARGET_VERSION=0x020e000000000000";
  EXPECT_NE(gxx(cpp, {target}).exit_code, 0);
  auto r = lint_real(cpp, {target});
  auto j = r.json();
  const auto* e = finding_at(j, "build-api-not-in-headers", 4, 51);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_NE((*e)["message"].get<std::string>().find("is not declared by the PyTorch 2.14"), std::string::npos)
      << (*e)["message"];
}

// A third-party name (cutlass, a submodule not checked out) is never blamed
// on PyTorch: the word "arch" in a comment of a skipped branch of
// torch/headeronly/macros/Macros.h declares nothing.
TEST(BuildConfigReal, AThirdPartyNameIsNeverHiddenByAPyTorchHeader) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cpp = write_file(make_temp_dir(), "fmha.cu.cpp", R"(#include "cutlass/arch/barrier.h"
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/macros/Macros.h>

namespace cutlass { namespace gemm {} }  // what the headers that were found declared
using Barrier = cutlass::arch::ClusterTransactionBarrier;
int64_t rank(const torch::stable::Tensor& t) { return t.dim(); }
)");
  auto r = lint_real(cpp, {"-DTORCH_TARGET_VERSION=0x020a000000000000"});
  const auto j = r.json();
  EXPECT_TRUE(findings_of(j, "build-api-hidden-by-configuration").empty()) << r.out;
  EXPECT_TRUE(findings_of(j, "build-api-not-in-headers").empty()) << r.out;
  EXPECT_TRUE(findings_of(j, "build-api-header-not-included").empty()) << r.out;
}

// Declared by these headers, in a header the file does not include: the fix
// is the #include, not a newer PyTorch.
TEST(BuildConfigReal, AnApiOfTheseHeadersThatTheFileDoesNotInclude) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cpp = write_file(make_temp_dir(), "stream.cpp", R"(#include <torch/headeronly/util/Exception.h>

void* pooled_stream(int32_t device) {
  void* stream = nullptr;
  STD_TORCH_CHECK(torch_get_cuda_stream_from_pool(false, device, &stream) == 0, "no stream");
  return stream;
}
)");
  const std::vector<std::string> flags = {"-DTORCH_TARGET_VERSION=0x020a000000000000", "-DUSE_CUDA"};
  EXPECT_NE(gxx(cpp, flags).exit_code, 0);
  auto r = lint_real(cpp, flags);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto j = r.json();
  const auto* e = finding_at(j, "build-api-header-not-included", 5, 19);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_NE((*e)["help"].get<std::string>().find("#include <torch/csrc/stable/c/shim.h>"), std::string::npos)
      << (*e)["help"];
  EXPECT_TRUE(findings_of(j, "build-api-not-in-headers").empty()) << r.out;
}

TEST(BuildConfigReal, ANonStableHeaderStopsATargetedBuild) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string dir = make_temp_dir();
  write_file(dir, "checks.h", "#pragma once\n#include <c10/util/Exception.h>\n");
  const std::string cpp = write_file(dir, "ops.cpp", R"(#include "checks.h"
#include <torch/csrc/stable/tensor.h>

int64_t rank(const torch::stable::Tensor& t) { return t.dim(); }
)");
  const std::string target = "-DTORCH_TARGET_VERSION=0x020a000000000000";
  const Gxx g = gxx(cpp, {target});
  EXPECT_NE(g.exit_code, 0);
  EXPECT_NE(g.output.find("#error"), std::string::npos) << g.output;
  auto r = lint_real(cpp, {target});
  EXPECT_EQ(r.exit_code, 1);
  auto j = r.json();
  const auto found = findings_of(j, "build-header-error");
  ASSERT_EQ(found.size(), 1u) << r.out;
  EXPECT_EQ(found[0].file, dir + "/checks.h");
  EXPECT_EQ(found[0].line, 2);
  const auto* e = finding_at(j, "build-header-error", 2, 1);
  ASSERT_NE(e, nullptr);
  EXPECT_NE((*e)["notes"][0].get<std::string>().find("include chain: "), std::string::npos) << (*e)["notes"];
  // Without the target the same header compiles: no finding of this rule.
  auto legacy = lint_real(cpp, {});
  EXPECT_TRUE(findings_of(legacy.json(), "build-header-error").empty()) << legacy.out;
}

// Issue 37, with 2.14.1's headers and bookworm's 1.13.1: a project header
// that replaces c10's C10_CUDA_CHECK in a stable build is the project's own
// macro, judged by its definition (STD_CUDA_CHECK: stable), never a use.
TEST(BuildConfigReal, TheProjectsOwnC10CudaCheckIsNotAUse) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string dir = make_temp_dir();
  write_file(dir, "include/cuda_compat.h", R"(#pragma once
#include <torch/csrc/stable/macros.h>
#undef C10_CUDA_CHECK
#define C10_CUDA_CHECK(EXPR) STD_CUDA_CHECK(EXPR)
)");
  const char* body = R"(#include <cuda_runtime.h>
#include "cuda_compat.h"

void sync_device() { C10_CUDA_CHECK(cudaDeviceSynchronize()); }
)";
  const std::string cu = write_file(dir, "sync.cu", body);
  const std::string target = "-DTORCH_TARGET_VERSION=0x020a000000000000";
  auto r = lint_real(cu, {"-I" + dir + "/include", target, "-DUSE_CUDA"});
  EXPECT_TRUE(findings_of(r.json(), "source-unstable-macro").empty()) << r.out;
  const auto report = r.json();  // held: a range-for over a temporary's member dangles
  for (const auto& f : report["findings"]) EXPECT_NE(f["severity"], "error") << f;
  // The same file as C++ without CUDA: the AST is incomplete, the tokens are read.
  const std::string cpp = write_file(dir, "sync.cpp", body);
  auto plain = lint_real(cpp, {"-I" + dir + "/include", target});
  EXPECT_TRUE(findings_of(plain.json(), "source-unstable-macro").empty()) << plain.out;
  // Bookworm's PyTorch 1.13.1 (/usr/include/torch): no stable headers at all.
  auto old = lint_json({cpp, "--", "-std=c++17", "-I" + dir + "/include", "-I/usr/include/torch/csrc/api/include", target});
  EXPECT_LE(old.exit_code, 1) << old.err;
  EXPECT_TRUE(findings_of(old.json(), "source-unstable-macro").empty()) << old.out;
  // An unstable definition is reported at its body, without a fix-it.
  write_file(dir, "include/cuda_compat.h", R"(#pragma once
#include <c10/util/Exception.h>
#define C10_CUDA_CHECK(EXPR) TORCH_CHECK((EXPR) == 0, "CUDA error")
)");
  auto bad = lint_json({cpp, "--", "-std=c++17", "-I" + dir + "/include", "-I/usr/include/torch/csrc/api/include", target});
  const std::string header = dir + "/include/cuda_compat.h";
  EXPECT_EQ(findings_of(bad.json(), "source-unstable-macro"), (std::vector<Found>{{header, 3, 30, "TORCH_CHECK"}}))
      << bad.out;
  const auto* f = finding_at(bad.json(), "source-unstable-macro", 3, 30);
  ASSERT_NE(f, nullptr) << bad.out;
  EXPECT_TRUE(!f->contains("fix") || (*f)["fix"].is_null()) << *f;
}

// A stable macro above the target, where clang's error does not say
// "undeclared" (namespace scope): the macro and its release.
TEST(BuildConfigReal, AMacroAboveTheTargetAtNamespaceScope) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cpp = write_file(make_temp_dir(), "ns.cpp", R"(#include <torch/csrc/stable/macros.h>

STD_CUDA_KERNEL_LAUNCH_CHECK();
)");
  auto r = lint_real(cpp, {"-DTORCH_TARGET_VERSION=0x0209000000000000"});
  auto j = r.json();
  const auto* e = finding_at(j, "version-api-after-target", 3, 1);
  ASSERT_NE(e, nullptr) << r.out;
  EXPECT_EQ((*e)["location"]["symbol"], "STD_CUDA_KERNEL_LAUNCH_CHECK");
  EXPECT_NE((*e)["message"].get<std::string>().find("introduced in PyTorch 2.10"), std::string::npos) << (*e)["message"];
}

// Issue 37: `extern "C" int32_t aoti_torch_get_current_cuda_stream(int32_t,
// void**)` in a .cu file compiled as CUDA with a target and without USE_CUDA
// is the stable ABI's prototype (AOTITorchError is int32_t).
TEST(BuildConfigReal, AHandDeclaredCudaStreamShimComparesCanonicalTypes) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string dir = make_temp_dir();
  const std::string target = "-DTORCH_TARGET_VERSION=0x020a000000000000";
  const std::string decl =
      "extern \"C\" int32_t aoti_torch_get_current_cuda_stream(int32_t device_index, void** ret_stream);\n"
      "void* current(int32_t d) { void* s = nullptr; aoti_torch_get_current_cuda_stream(d, &s); return s; }\n";
  for (const char* ext : {"cu", "cpp"}) {
    for (bool shim : {false, true}) {
      const std::string file =
          write_file(dir, std::string(shim ? "with_shim." : "plain.") + ext,
                     std::string(shim ? "#include <torch/csrc/inductor/aoti_torch/c/shim.h>\n" : "#include <cstdint>\n") + decl);
      for (bool use_cuda : {false, true}) {
        std::vector<std::string> flags = {target};
        if (use_cuda) flags.push_back("-DUSE_CUDA");
        auto r = lint_real(file, flags);
        EXPECT_TRUE(findings_of(r.json(), "source-shim-declaration-mismatch").empty()) << file << " " << use_cuda << r.out;
      }
    }
    const std::string bad = write_file(dir, std::string("bad.") + ext,
                                       "#include <cstdint>\nextern \"C\" int64_t aoti_torch_get_current_cuda_stream("
                                       "int32_t device_index, void** ret_stream);\n");
    auto r = lint_real(bad, {target});
    EXPECT_EQ(findings_of(r.json(), "source-shim-declaration-mismatch"),
              (std::vector<Found>{{bad, 2, 20, "aoti_torch_get_current_cuda_stream"}}))
        << r.out;
  }
  // Bookworm's 1.13.1 headers: no stable shim there; the catalog decides, no crash.
  const std::string plain = dir + "/plain.cu";
  auto old = lint_json({plain, "--", "-std=c++17", "-I/usr/include/torch/csrc/api/include", target});
  EXPECT_LE(old.exit_code, 1) << old.err;
  EXPECT_TRUE(findings_of(old.json(), "source-shim-declaration-mismatch").empty()) << old.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint
