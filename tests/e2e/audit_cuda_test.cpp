// The CUDA axis of `audit`: the CUDA major a library's DT_NEEDED implies
// (fixtures/cuda_ext: the stable fixture linked against stand-ins named
// libcudart.so.12 and so on), shown next to the floor, and with --torch
// whether that torch's CUDA matches (binary-cuda-mismatch).
#include <filesystem>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "cli_harness.h"
#include "standins.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;
namespace fs = std::filesystem;

namespace {

std::string cuda_ext(const std::string& name) { return fixture("cuda_ext/lib" + name + ".so"); }

// The v1 stand-in torch, copied with a version.py that states `cuda_line`.
std::string torch_with_cuda(const std::string& dir, const std::string& name, const std::string& cuda_line) {
  const fs::path root = fs::path(dir) / name / "torch";
  fs::create_directories(root);
  fs::copy(torchabi::test::standin_v1() + "/lib", root / "lib", fs::copy_options::recursive);
  write_file(root.string(), "version.py", "__version__ = '9.1.0'\n" + cuda_line + "\n");
  return root.string();
}

}  // namespace

TEST(AuditCuda, CudaMajorNextToTheFloorInEveryFormat) {
  auto j = run_torchabi({"audit", "--format", "json", cuda_ext("cuda_ext12"), cuda_ext("cuda_ext11"),
                         cuda_ext("cuda_ext_any"), stable_lib()}).json();
  auto s12 = subject(j, cuda_ext("cuda_ext12"));
  EXPECT_EQ(s12["facts"]["cuda majors"], "12");
  EXPECT_EQ(s12["facts"]["cuda"], "CUDA 12: libcudart.so.12 (CUDA runtime), libcublas.so.12 (cuBLAS)");
  EXPECT_EQ(s12["loads_on"], "PyTorch >= 2.10, with CUDA 12");
  EXPECT_EQ(s12["floor"], "2.10");
  EXPECT_EQ(subject(j, cuda_ext("cuda_ext11"))["facts"]["cuda majors"], "11");
  EXPECT_EQ(subject(j, cuda_ext("cuda_ext_any"))["facts"]["cuda majors"], "any");
  EXPECT_FALSE(subject(j, stable_lib())["facts"].contains("cuda"));

  auto text = run_torchabi({"audit", cuda_ext("cuda_ext12")});
  EXPECT_NE(text.out.find("STABLE — PyTorch >= 2.10, with CUDA 12"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  cuda: CUDA 12: libcudart.so.12"), std::string::npos) << text.out;
  auto md = run_torchabi({"audit", "--format", "md", cuda_ext("cuda_ext12")});
  EXPECT_NE(md.out.find("| STABLE | PyTorch >= 2.10, with CUDA 12 |"), std::string::npos) << md.out;
}

TEST(AuditCuda, MismatchWithTheTorchsCudaIsAFinding) {
  TORCHABI_REQUIRE_STANDINS();
  const std::string dir = make_temp_dir();
  const std::string cu12 = torch_with_cuda(dir, "cu12", "cuda: Optional[str] = '12.4'");
  const std::string cu11 = torch_with_cuda(dir, "cu11", "cuda = '11.8'");
  const std::string cpu = torch_with_cuda(dir, "cpu", "cuda: Optional[str] = None");
  auto r = run_torchabi({"audit", "--format", "json", "--torch", cu12, "--torch", cu11, "--torch", cpu,
                         cuda_ext("cuda_ext12"), cuda_ext("cuda_ext_any"), stable_lib()});
  const auto j = r.json();
  const auto fired = findings_of(j, "binary-cuda-mismatch");
  ASSERT_EQ(fired.size(), 2u) << j.dump(2);  // ext12 on cu11 and on the CPU build; nothing else
  EXPECT_EQ(fired[0]["location"]["file"], cuda_ext("cuda_ext12"));
  EXPECT_EQ(fired[0]["message"], "needs CUDA 12 (libcudart.so.12 (CUDA runtime), libcublas.so.12 (cuBLAS)), but torch 9.1.0 (" +
                                     cu11 + ") is built for CUDA 11.8");
  EXPECT_NE(fired[1]["message"].get<std::string>().find("is a CPU-only build"), std::string::npos);
  const auto facts = subject(j, cuda_ext("cuda_ext12"))["facts"];
  EXPECT_EQ(facts["cuda on " + cu12], "matches: CUDA 12.4 (torch/version.py (cuda))");
  EXPECT_EQ(facts["cuda on " + cu11], "mismatch: CUDA 11.8 (torch/version.py (cuda))");
  // A library that names no CUDA major, or no CUDA at all, matches any torch.
  EXPECT_FALSE(subject(j, stable_lib())["facts"].contains("cuda on " + cu11));
  EXPECT_FALSE(subject(j, cuda_ext("cuda_ext_any"))["facts"].contains("cuda on " + cu11));

  // The same torch's CUDA from its release's local version, with no cuda line.
  const std::string local = torch_with_cuda(dir, "local", "");
  write_file(local, "version.py", "__version__ = '9.1.0+cu118'\n");
  auto k = run_torchabi({"audit", "--format", "json", "--torch", local, cuda_ext("cuda_ext12")}).json();
  EXPECT_EQ(subject(k, cuda_ext("cuda_ext12"))["facts"]["cuda on " + local],
            "mismatch: CUDA 11.8 (the release's local version (+cu118))");
}

TEST(AuditCuda, RuleIsExplained) {
  auto r = run_torchabi({"explain", "binary-cuda-mismatch"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("libcudart.so.12"), std::string::npos);
}
