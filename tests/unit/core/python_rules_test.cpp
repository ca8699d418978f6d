// rules/python/: CPython's stable ABI and the manylinux/musllinux policies as
// the embedded rules hold them, and what malformed tables do.
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>

#include "common/input_error.h"
#include "inputs/python/cpython_abi.h"
#include "inputs/python/platform_policy.h"
#include "inputs/rules_source.h"

using namespace torchabi::inputs;

TEST(CPythonStableAbi, KnownEntries) {
  const auto abi = CPythonStableAbi::load(RulesSource::embedded());
  EXPECT_GT(abi.size(), 900u);  // CPython 3.13 lists about 950 symbols
  const StableAbiSymbol* s = abi.find("PyModule_AddType");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->added_min, (PythonVersion{3, 10}));
  EXPECT_EQ(s->added_max, (PythonVersion{3, 10}));
  ASSERT_NE(abi.find("PyModule_Create2"), nullptr);
  EXPECT_EQ(abi.find("PyModule_Create2")->added_min, (PythonVersion{3, 2}));
  // Windows-only members carry their feature macro.
  ASSERT_NE(abi.find("PyErr_SetFromWindowsErr"), nullptr);
  EXPECT_EQ(abi.find("PyErr_SetFromWindowsErr")->platform, "MS_WINDOWS");
  // Outside the stable ABI.
  EXPECT_EQ(abi.find("PyUnicode_AsUTF8"), nullptr);
  EXPECT_EQ(abi.find("_PyObject_GetAttrId"), nullptr);
}

TEST(CPythonStableAbi, CApiNames) {
  EXPECT_TRUE(is_python_c_api_symbol("PyLong_FromLong"));
  EXPECT_TRUE(is_python_c_api_symbol("_Py_Dealloc"));
  EXPECT_FALSE(is_python_c_api_symbol("PyInit__C"));
  EXPECT_FALSE(is_python_c_api_symbol("aoti_torch_get_numel"));
  EXPECT_FALSE(is_python_c_api_symbol("_ZN3c104impl"));
}

TEST(PythonVersion, Parse) {
  EXPECT_EQ(PythonVersion::parse("3.12"), (PythonVersion{3, 12}));
  EXPECT_FALSE(PythonVersion::parse("3"));
  EXPECT_FALSE(PythonVersion::parse("3.x"));
  EXPECT_FALSE(PythonVersion::parse("3.9.1"));
  EXPECT_LT((PythonVersion{3, 9}), (PythonVersion{3, 10}));
}

TEST(PlatformPolicies, AliasesAndLimits) {
  const auto p = PlatformPolicies::load(RulesSource::embedded());
  const PolicyLimits* m2014 = p.find("manylinux2014", "x86_64");
  ASSERT_NE(m2014, nullptr);
  EXPECT_EQ(m2014, p.find("manylinux_2_17", "x86_64"));
  EXPECT_TRUE(m2014->at("GLIBC").allows("2.17"));
  EXPECT_TRUE(m2014->at("GLIBC").allows("2.2.5"));
  EXPECT_FALSE(m2014->at("GLIBC").allows("2.34"));
  EXPECT_TRUE(m2014->at("CXXABI").allows("TM_1"));
  EXPECT_FALSE(m2014->at("GLIBCXX").allows("3.4.29"));
  // aarch64's manylinux2014 starts at glibc 2.18 (facts of the policy file).
  EXPECT_TRUE(p.find("manylinux_2_17", "aarch64")->at("GLIBC").allows("2.18"));
  // musllinux governs no GNU symbol versions.
  const PolicyLimits* musl = p.find("musllinux_1_2", "x86_64");
  ASSERT_NE(musl, nullptr);
  EXPECT_TRUE(musl->empty());
  EXPECT_EQ(p.find("manylinux_9_99", "x86_64"), nullptr);
}

TEST(PlatformPolicies, DottedVersions) {
  EXPECT_LT(compare_dotted("2.2.5", "2.17"), 0);
  EXPECT_EQ(compare_dotted("2.17", "2.17.0"), 0);
  EXPECT_GT(compare_dotted("3.4.30", "3.4.29"), 0);
  EXPECT_TRUE(is_dotted_number("1.3.13"));
  EXPECT_FALSE(is_dotted_number("TM_1"));
  EXPECT_FALSE(is_dotted_number("2..3"));
  EXPECT_FALSE(is_dotted_number(".2"));
}

namespace {

std::string rules_dir(const std::string& name, const std::string& stable_abi, const std::string& policies) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir / "python");
  std::ofstream(dir / "python/stable_abi.tsv") << stable_abi;
  std::ofstream(dir / "python/platform_policies.tsv") << policies;
  return dir.string();
}

}  // namespace

TEST(PythonRules, MalformedTablesNameTheLine) {
  const auto src = RulesSource::directory(rules_dir("py_bad", "# c\nsymbol\tadded_min\tadded_max\tplatform\nPyX\t3.10\t3.9\t\n",
                                                    "policy\taliases\tarch\tnamespace\tmax\textras\nm\t\tx86_64\tGLIBC\tnew\t\n"));
  try {
    CPythonStableAbi::load(src);
    FAIL() << "no error";
  } catch (const torchabi::InputError& e) {
    EXPECT_EQ(e.input(), "python/stable_abi.tsv:3");
  }
  EXPECT_THROW(PlatformPolicies::load(src), torchabi::InputError);
  const auto short_rows = RulesSource::directory(rules_dir("py_short", "symbol\tadded_min\nPyX\t3.2\n", ""));
  EXPECT_THROW(CPythonStableAbi::load(short_rows), torchabi::InputError);
  EXPECT_THROW(PlatformPolicies::load(short_rows), torchabi::InputError);  // empty: no policies
}
