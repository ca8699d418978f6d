// The ATen ops the reference runtime must execute are the ones the real stable
// headers can call: read them from Debian's newest PyTorch headers and check
// that the runtime implements each one (through its dispatcher, or as the
// aoti_torch_aten_* C function), and that rules/runtime/aten_ops.tsv — the
// schemas the driver hands the runtime — is what the generator derives.
#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "analyzers/runtime/shim/control.h"
#include "common/mapped_file.h"
#include "inputs/elf_view.h"
#include "real_torch.h"

extern "C" torchabi::runtime::Control* torchabi_runtime_control();

namespace {

namespace fs = std::filesystem;
using ::testing::IsEmpty;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "aten::name.overload" for every dispatcher call in torch/csrc/stable/**.h.
std::set<std::string> header_dispatcher_ops() {
  std::set<std::string> out;
  const std::regex call(R"re(\b(?:aoti_torch_call_dispatcher|torch_call_dispatcher)\s*\(\s*"(aten::\w+)"\s*,\s*"(\w*)")re");
  for (const auto& e : fs::recursive_directory_iterator(torchabi::test::real_torch_include() + "/torch/csrc/stable")) {
    if (e.path().extension() != ".h") continue;
    std::string text = slurp(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it)
      out.insert((*it)[1].str() + ((*it)[2].length() ? "." + (*it)[2].str() : ""));
  }
  return out;
}

std::set<std::string> header_shim_functions() {
  std::set<std::string> out;
  const std::regex decl(R"re(\bAOTITorchError\s+(aoti_torch_aten_\w+)\s*\()re");
  std::string text =
      slurp(torchabi::test::real_torch_include() + "/torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h");
  for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it) out.insert((*it)[1].str());
  return out;
}

// Functions the runtime library defines itself (a strong, GLOBAL definition;
// the generated fallback for an unimplemented one is WEAK).
std::set<std::string> implemented_functions() {
  torchabi::MappedFile file(TORCHABI_RUNTIME_LATEST);
  torchabi::inputs::ElfView elf(file.bytes(), TORCHABI_RUNTIME_LATEST);
  std::set<std::string> out;
  for (size_t i = 1; i < elf.symbol_count(); ++i) {
    auto s = elf.symbol(i);
    if (s.defined && s.bind == 1 /* STB_GLOBAL */) out.insert(std::string(s.name));
  }
  return out;
}

// rules/runtime/aten_ops.tsv: qualified name -> schema.
std::map<std::string, std::string> tsv_ops() {
  std::map<std::string, std::string> out;
  std::istringstream in(slurp(TORCHABI_ATEN_OPS_TSV));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string schema = line.substr(0, line.find('\t'));
    out[schema.substr(0, schema.find('('))] = schema;
  }
  return out;
}

std::set<std::string> boxed() {
  auto names = torchabi_runtime_control()->aten_implemented();
  return {names.begin(), names.end()};
}

TEST(RuntimeAtenOps, EveryOpTheRealHeadersCallThroughTheDispatcherIsImplemented) {
  TORCHABI_REQUIRE_REAL_TORCH();
  auto ops = header_dispatcher_ops();
  ASSERT_FALSE(ops.empty()) << "no dispatcher calls found in " << torchabi::test::real_torch_include();
  auto impl = boxed();
  auto tsv = tsv_ops();
  std::vector<std::string> missing, unlisted;
  for (const auto& op : ops) {
    if (!impl.count(op)) missing.push_back(op);
    if (!tsv.count(op)) unlisted.push_back(op);
  }
  EXPECT_THAT(missing, IsEmpty()) << "ATen ops " << torchabi::test::real_torch_packages()
                                  << " calls that the reference runtime does not implement";
  EXPECT_THAT(unlisted, IsEmpty()) << "rerun scripts/build-runtime-aten-ops.py";
}

TEST(RuntimeAtenOps, EveryGeneratedAtenShimFunctionIsImplemented) {
  TORCHABI_REQUIRE_REAL_TORCH();
  auto fns = header_shim_functions();
  ASSERT_FALSE(fns.empty());
  auto defined = implemented_functions();
  std::vector<std::string> missing;
  for (const auto& f : fns)
    if (!defined.count(f)) missing.push_back(f);
  EXPECT_THAT(missing, IsEmpty()) << "c_shim_aten.h functions the runtime only stubs";
}

TEST(RuntimeAtenOps, TheRulesFileIsWhatTheGeneratorDerivesFromTheRealHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string cmd = "python3 " TORCHABI_SOURCE_DIR "/scripts/build-runtime-aten-ops.py --check --torch-root '" +
                          *torchabi::test::real_torch_root() + "' -o " TORCHABI_ATEN_OPS_TSV " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

// Without real PyTorch: the rules file and the runtime agree with each other.
TEST(RuntimeAtenOps, EveryListedOpIsImplementedAndEveryImplementedOpIsListed) {
  auto impl = boxed();
  auto tsv = tsv_ops();
  auto defined = implemented_functions();
  std::vector<std::string> unimplemented, unlisted;
  std::ifstream in(TORCHABI_ATEN_OPS_TSV);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string schema = line.substr(0, line.find('\t'));
    std::string name = schema.substr(0, schema.find('('));
    std::string used_by = line.substr(line.find('\t') + 1);
    // Ops with a Scalar argument cannot cross the dispatcher: their C shim function must exist.
    if (std::regex_search(schema, std::regex("\\bScalar\\b"))) {
      std::smatch m;
      if (!std::regex_search(used_by, m, std::regex("aoti_torch_aten_\\w+")) || !defined.count(m.str()))
        unimplemented.push_back(name + " (" + used_by + ")");
    } else if (!impl.count(name)) {
      unimplemented.push_back(name);
    }
  }
  for (const auto& name : impl)
    if (!tsv.count(name)) unlisted.push_back(name);
  EXPECT_THAT(unimplemented, IsEmpty());
  EXPECT_THAT(unlisted, IsEmpty()) << "rerun scripts/build-runtime-aten-ops.py";
}

}  // namespace
