// The CUDA axis: which CUDA major a library's DT_NEEDED implies
// (rules/binary/cuda_libraries.tsv) and which CUDA a torch install states.
#include <gtest/gtest.h>

#include "analyzers/binary/cuda_needs.h"
#include "inputs/cuda_libraries.h"
#include "inputs/torch_install_version.h"

using namespace torchabi;
using binary::cuda_needs;
using V = std::vector<int>;

TEST(CudaLibraries, SonamesToCudaMajors) {
  const auto& t = inputs::CudaLibraries::current();
  EXPECT_EQ(t.classify("libcudart.so.12")->majors, V{12});
  EXPECT_EQ(t.classify("libcudart.so.11.0")->majors, V{11});  // CUDA 11's runtime soname
  EXPECT_EQ(t.classify("libcudart.so.13")->component, "CUDA runtime");
  EXPECT_EQ(t.classify("libcublas.so.12")->majors, V{12});
  EXPECT_EQ(t.classify("libnvrtc.so.11.2")->majors, V{11});
  // cuFFT's own major is one below CUDA's: the exact rows decide.
  EXPECT_EQ(t.classify("libcufft.so.11")->majors, V{12});
  EXPECT_EQ(t.classify("libcufft.so.10")->majors, V{11});
  EXPECT_EQ(t.classify("libcusolver.so.11")->majors, (V{11, 12}));
  // Names no CUDA major.
  EXPECT_EQ(t.classify("libcurand.so.10")->majors, V{});
  EXPECT_EQ(t.classify("libcudnn.so.9")->majors, V{});
  EXPECT_EQ(t.classify("libcuda.so.1")->majors, V{});
  // Not NVIDIA's, or not a soname of the pattern.
  EXPECT_FALSE(t.classify("libc.so.6"));
  EXPECT_FALSE(t.classify("libcudart.so"));
  EXPECT_FALSE(t.classify("libcudart.so.12x"));
  EXPECT_FALSE(t.classify("libcudart_static.a"));
}

TEST(CudaNeeds, LibrariesTogetherAllowTheCommonMajors) {
  auto n = cuda_needs({"libc.so.6", "libcudart.so.12", "libcublas.so.12", "libcusolver.so.11"});
  EXPECT_EQ(n.libraries.size(), 3u);
  EXPECT_TRUE(n.constrained);
  EXPECT_EQ(n.majors, V{12});
  EXPECT_EQ(n.majors_text(), "12");
  EXPECT_TRUE(n.allows(12));
  EXPECT_FALSE(n.allows(11));
  EXPECT_EQ(n.libraries_text(), "libcudart.so.12 (CUDA runtime), libcublas.so.12 (cuBLAS), libcusolver.so.11 (cuSOLVER 11)");

  n = cuda_needs({"libcusolver.so.11"});
  EXPECT_EQ(n.majors_text(), "11 or 12");
  n = cuda_needs({"libcurand.so.10", "libcuda.so.1"});
  EXPECT_FALSE(n.constrained);
  EXPECT_EQ(n.majors_text(), "any");
  EXPECT_TRUE(n.allows(11));
  // A CUDA 11 runtime next to a CUDA 12 cuBLAS: no CUDA ships both.
  n = cuda_needs({"libcudart.so.11.0", "libcublas.so.12"});
  EXPECT_TRUE(n.constrained);
  EXPECT_TRUE(n.majors.empty());
  EXPECT_FALSE(n.allows(11));
  EXPECT_TRUE(cuda_needs({"libc.so.6"}).empty());

  // A package merges its libraries.
  binary::CudaNeeds pkg;
  pkg.merge(cuda_needs({"libcusolver.so.11"}));
  pkg.merge(cuda_needs({"libcudart.so.12", "libcusolver.so.11"}));
  EXPECT_EQ(pkg.libraries.size(), 2u);
  EXPECT_EQ(pkg.majors, V{12});
}

TEST(CudaNeeds, FactsAndLoadsOn) {
  findings::Subject s;
  s.loads_on = "PyTorch >= 2.10";
  binary::describe_cuda(cuda_needs({"libcudart.so.12"}), s);
  EXPECT_EQ(s.loads_on, "PyTorch >= 2.10, with CUDA 12");
  ASSERT_EQ(s.facts.size(), 2u);
  EXPECT_EQ(s.facts[0], (std::pair<std::string, std::string>{"cuda", "CUDA 12: libcudart.so.12 (CUDA runtime)"}));
  EXPECT_EQ(s.facts[1], (std::pair<std::string, std::string>{"cuda majors", "12"}));
  findings::Subject none;
  binary::describe_cuda(cuda_needs({"libc.so.6"}), none);
  EXPECT_TRUE(none.facts.empty());
}

TEST(TorchCudaVersion, FromVersionPyAndLocalVersion) {
  using inputs::cuda_from_local_version;
  using inputs::parse_version_py_cuda;
  EXPECT_EQ(parse_version_py_cuda("__version__ = '2.5.1'\ncuda: Optional[str] = '12.4'\n"), "12.4");
  EXPECT_EQ(parse_version_py_cuda("cuda = \"11.8\"\n"), "11.8");
  EXPECT_EQ(parse_version_py_cuda("cuda: Optional[str] = None\n"), "none");
  EXPECT_EQ(parse_version_py_cuda("cuda_home = '/usr'\n"), std::nullopt);
  EXPECT_EQ(parse_version_py_cuda("__version__ = '2.5.1'\n"), std::nullopt);
  EXPECT_EQ(cuda_from_local_version("2.5.1+cu121"), "12.1");
  EXPECT_EQ(cuda_from_local_version("2.5.1+cu118"), "11.8");
  EXPECT_EQ(cuda_from_local_version("2.9.0+cu130"), "13.0");
  EXPECT_EQ(cuda_from_local_version("2.5.1+cpu"), "none");
  EXPECT_EQ(cuda_from_local_version("2.14.1"), std::nullopt);
  EXPECT_EQ(cuda_from_local_version("2.5.1+rocm6.2"), std::nullopt);
}
