// Header-only C++ in namespace c10 against the real PyTorch tree: libraries
// built here with g++ and the real headers export weak copies of the inline
// code they use; only the copies of unstable headers' code are leaks.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <algorithm>
#include <set>
#include <string>

#include "analyzers/binary/library_scan.h"
#include "common/mapped_file.h"
#include "inputs/api_catalog.h"
#include "inputs/elf_view.h"
#include "inputs/headeronly_index.h"
#include "inputs/rules_source.h"
#include "real_torch.h"
#include "temp_tree.h"

using namespace torchabi;
namespace fs = std::filesystem;

namespace {

binary::SymbolClassifier& classifier() {
  static binary::SymbolClassifier c =
      binary::SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current());
  return c;
}

std::string fixture(const std::string& name) {
  return std::string(TORCHABI_SOURCE_DIR) + "/fixtures/audit/headeronly_inline/" + name;
}

// Builds fixtures/audit/headeronly_inline/<name> into a shared library with
// default visibility, against the real headers; "" (and a test failure) if g++ fails.
std::string build(const std::string& name) {
  static const test::TempTree tree;  // removed when the test binary exits
  const fs::path out = tree.path / (name + ".so");
  const fs::path log = out.string() + ".log";
  const std::string cmd = "g++ -std=c++17 -O0 -fPIC -shared -I '" + test::real_torch_include() + "' '" +
                          fixture(name) + "' -o '" + out.string() + "' > '" + log.string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream in(log);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ADD_FAILURE() << cmd << "\n" << all;
    return {};
  }
  return out.string();
}

binary::LibraryScan scan(const std::string& path) {
  MappedFile file(path);
  inputs::ElfView elf(file.bytes(), path);
  return binary::scan_library(elf, classifier());
}

// The weak c10:: definitions the library exports, demangled.
std::set<std::string> weak_c10_exports(const std::string& path) {
  MappedFile file(path);
  inputs::ElfView elf(file.bytes(), path);
  std::set<std::string> out;
  for (size_t i = 1; i < elf.symbol_count(); ++i) {
    const inputs::DynSymbol s = elf.symbol(i);
    if (!s.defined || s.bind != 2 /*STB_WEAK*/ || s.name.find("3c10") == std::string_view::npos) continue;
    out.insert(classifier().demangle(s.name));
  }
  return out;
}

}  // namespace

TEST(HeaderOnlyReal, ShippedDataNamesHeadersOfTheRealTree) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const auto text = inputs::RulesSource::current().read("api/headeronly_cxx.tsv");
  ASSERT_TRUE(text.has_value());
  // Every header the data cites exists in the real tree (regenerate with
  // scripts/headeronly-cxx.py when PyTorch moves code).
  std::istringstream in(*text);
  size_t rows = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.starts_with("name\t")) continue;
    const size_t a = line.find('\t'), b = line.find('\t', a + 1), c = line.find('\t', b + 1);
    ASSERT_NE(c, std::string::npos) << line;
    const std::string header = line.substr(b + 1, c - b - 1);
    EXPECT_TRUE(fs::exists(test::real_torch_include() + "/" + header)) << header;
    ++rows;
  }
  EXPECT_GT(rows, 0u);
  EXPECT_GT(inputs::HeaderOnlyIndex::current().size(), 0u);
}

TEST(HeaderOnlyReal, WeakCopiesOfHeaderOnlyC10CodeAreNotLeaks) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string so = build("headeronly_copies.cpp");
  ASSERT_FALSE(so.empty());
  const auto exported = weak_c10_exports(so);
  // The library does export header-only c10 code, as weak copies...
  EXPECT_TRUE(exported.count("c10::toString(c10::ScalarType)")) << ::testing::PrintToString(exported);
  EXPECT_TRUE(exported.count("c10::Half::operator float() const")) << ::testing::PrintToString(exported);
  EXPECT_GE(exported.size(), 5u);
  // ...none of which is PyTorch's unstable inline C++.
  const binary::LibraryScan s = scan(so);
  EXPECT_EQ(s.leaked_count, 0u);
  for (const auto& e : s.leaked_examples) ADD_FAILURE() << "reported as leaked: " << e.demangled;
  EXPECT_TRUE(s.unstable_imports.empty());
}

TEST(HeaderOnlyReal, WeakCopiesOfUnstableC10CodeStillLeak) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string so = build("c10_inline_copies.cpp");
  ASSERT_FALSE(so.empty());
  const auto exported = weak_c10_exports(so);
  ASSERT_TRUE(exported.count("c10::toString(c10::ScalarType)")) << ::testing::PrintToString(exported);
  const binary::LibraryScan s = scan(so);
  std::set<std::string> leaked;
  for (const auto& e : s.leaked_examples) leaked.insert(e.demangled);
  ASSERT_LE(s.leaked_count, binary::LibraryScan::kLeakedExamples);
  EXPECT_TRUE(leaked.count("c10::toString(c10::Backend)")) << ::testing::PrintToString(leaked);
  EXPECT_TRUE(leaked.count("c10::elementSize(c10::ScalarType)")) << ::testing::PrintToString(leaked);
  // An instance of c10/util/ArrayRef.h's operator<< template, not of complex.h's.
  EXPECT_TRUE(std::any_of(leaked.begin(), leaked.end(), [](const std::string& n) {
    return n.find("c10::operator<<") != std::string::npos && n.find("c10::ArrayRef<long>") != std::string::npos;
  })) << ::testing::PrintToString(leaked);
  EXPECT_FALSE(leaked.count("c10::toString(c10::ScalarType)"));
}

// `namespace at { using namespace c10; }` in the header-only macros header:
// at::ScalarType::Float is the header-only c10::ScalarType::Float, at::Tensor
// is still unstable. The directives are read from the real headers by
// scripts/headeronly-cxx.py; here a rules directory of our own states them.
TEST(HeaderOnlyIndex, UsingDirectivesMakeHeaderOnlyNamesReachableByTheirOtherSpelling) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("headeronly_rules_" + std::to_string(::getpid()));
  fs::create_directories(dir / "api");
  std::ofstream(dir / "api/headeronly_cxx.tsv") << "name\tkind\theader\tmangled\n"
                                                   "c10::ScalarType\ttype\ttorch/headeronly/core/ScalarType.h\t-\n"
                                                   "at\tusing-namespace\ttorch/headeronly/macros/Macros.h\tc10\n"
                                                   "legacy\tusing-namespace\ttorch/headeronly/macros/Macros.h\tat\n";
  const auto idx = inputs::HeaderOnlyIndex::load(inputs::RulesSource::directory(dir.string()));
  EXPECT_TRUE(idx.defines_name("c10::ScalarType::Float"));
  EXPECT_TRUE(idx.defines_name("at::ScalarType::Float"));
  EXPECT_TRUE(idx.defines_name("::at::ScalarType"));
  EXPECT_TRUE(idx.defines_name("legacy::ScalarType"));  // through two directives
  EXPECT_FALSE(idx.defines_name("at::Tensor"));
  EXPECT_FALSE(idx.defines_name("at"));  // a directive is no entity
  EXPECT_FALSE(idx.defines_name("torch::ScalarType"));
  fs::remove_all(dir);
}

TEST(HeaderOnlyReal, ShippedDataHasTheHeadersUsingDirectives) {
  TORCHABI_REQUIRE_REAL_TORCH();
  // The shipped table was generated from the real tree; the directive is still there.
  std::ifstream in(torchabi::test::real_torch_include() + "/torch/headeronly/macros/Macros.h");
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().find("using namespace c10;") == std::string::npos) GTEST_SKIP() << "the headers no longer have it";
  EXPECT_TRUE(inputs::HeaderOnlyIndex::current().defines_name("at::ScalarType::Float"));
}
