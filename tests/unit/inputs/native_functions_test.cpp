// native_functions.yaml as rules/schema/aten_ops.tsv rows (`rules import
// --torch`), on a small file of our own and on the real PyTorch's, whose rows
// must be those scripts/build-schema-rules.py shipped from the same file.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "common/input_error.h"
#include "inputs/native_functions.h"
#include "inputs/torch_install_files.h"
#include "real_torch.h"
#include "temp_tree.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

// The files live as long as the test binary and are removed at its exit.
std::string temp_file(const std::string& name, const std::string& text) {
  static const test::TempTree tree;
  return tree.write(name, text);
}

TEST(NativeFunctions, CompositeOrBackendAsTorchgenDecides) {
  const std::string yaml = temp_file("nf.yaml", R"(
- func: abs(Tensor self) -> Tensor
  variants: function, method
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU, CUDA: add_out
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
- func: zeros_like(Tensor self) -> Tensor
  dispatch:
    CompositeExplicitAutograd: zeros_like
- func: _fused(Tensor self) -> Tensor
  dispatch:
    CPU, MPS: fused_cpu
    NestedTensorCPU, CompositeExplicitAutogradNonFunctional: fused_any
)");
  const auto rows = read_native_functions(yaml);
  ASSERT_EQ(rows.size(), 5u);
  std::map<std::string, bool> composite;
  for (const auto& r : rows) composite[r.name] = r.composite;
  EXPECT_TRUE(composite.at("abs"));            // no dispatch: CompositeImplicitAutograd
  EXPECT_FALSE(composite.at("add.out"));       // per-backend kernels
  EXPECT_FALSE(composite.at("add.Tensor"));    // delegates to add.out
  EXPECT_TRUE(composite.at("zeros_like"));
  EXPECT_TRUE(composite.at("_fused"));         // a composite key among several
  EXPECT_EQ(rows.front().name, "_fused");      // sorted
  const std::string tsv = aten_ops_tsv(rows, "9.9.0", "nf.yaml");
  EXPECT_NE(tsv.find("# release: 9.9.0\n"), std::string::npos);
  EXPECT_NE(tsv.find("\nadd.Tensor\tbackend\tadd.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"),
            std::string::npos);
}

TEST(NativeFunctions, BadFilesAreInputErrorsNamingThem) {
  EXPECT_THROW(read_native_functions("/nonexistent/native_functions.yaml"), InputError);
  const std::string not_yaml = temp_file("bad.yaml", "- func: [unclosed\n");
  try {
    read_native_functions(not_yaml);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(e.line().find(not_yaml), std::string::npos) << e.line();
  }
  EXPECT_THROW(read_native_functions(temp_file("empty.yaml", "- name: x\n")), InputError);
}

// The shipped rules/schema/aten_ops.tsv came from the fetched PyTorch by the
// script; reading the same file here gives the same rows.
TEST(NativeFunctions, RealFileGivesTheShippedRows) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string yaml = torchabi::test::real_native_functions();
  std::ifstream shipped_in(std::string(TORCHABI_SOURCE_DIR) + "/rules/schema/aten_ops.tsv");
  std::stringstream shipped;
  shipped << shipped_in.rdbuf();
  auto body = [](const std::string& tsv) {
    std::string out;
    std::istringstream in(tsv);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') out += line + "\n";
    return out;
  };
  const auto rows = read_native_functions(yaml);
  EXPECT_GT(rows.size(), 2000u);
  EXPECT_EQ(body(aten_ops_tsv(rows, "x", "y")), body(shipped.str()))
      << "rules/schema/aten_ops.tsv is not what the fetched PyTorch says: rerun scripts/build-schema-rules.py";
}

TEST(TorchInstallFiles, DebianLayoutsFindHeadersAndTorchgen) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string root = torchabi::test::real_torch_root().value();
  for (const std::string& install : {torchabi::test::real_torch_libdir(), root + "/usr/lib/python3/dist-packages/torch"}) {
    const TorchInstallFiles f = locate_torch_install_files(install);
    // Debian's torch/include links to /usr/include's directories: the same headers.
    EXPECT_EQ(fs::weakly_canonical(f.include_dir + "/torch/csrc/stable"),
              fs::weakly_canonical(root + "/usr/include/torch/csrc/stable"))
        << install;
    EXPECT_EQ(fs::path(f.native_functions), fs::weakly_canonical(torchabi::test::real_native_functions())) << install;
  }
  const TorchInstallFiles none = locate_torch_install_files(::testing::TempDir());
  EXPECT_TRUE(none.include_dir.empty());
}

}  // namespace
}  // namespace torchabi::inputs
