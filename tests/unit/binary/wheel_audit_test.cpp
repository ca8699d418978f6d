// Wheels: every library member audited in memory, the floor cross-checked
// with Requires-Dist, a bad member reported without losing the others.
#include <gtest/gtest.h>

#include "analyzers/binary/symbol_classifier.h"
#include "analyzers/binary/wheel_audit.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/elf_image_builder.h"
#include "inputs/rules_source.h"
#include "inputs/zip_builder.h"

using namespace torchabi;
using test_support::ElfImageSpec;

namespace {

binary::SymbolClassifier& classifier() {
  static binary::SymbolClassifier c =
      binary::SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current());
  return c;
}

std::string elf_bytes(std::vector<test_support::ElfSymbolSpec> symbols) {
  ElfImageSpec spec;
  spec.symbols = std::move(symbols);
  auto img = test_support::build_elf(spec);
  return std::string(reinterpret_cast<const char*>(img.bytes.data()), img.bytes.size());
}

std::string metadata(const std::string& requires_dist) {
  return "Metadata-Version: 2.1\nName: ext\nVersion: 1.0\n" +
         (requires_dist.empty() ? "" : "Requires-Dist: " + requires_dist + "\n");
}

findings::Report audit(const std::vector<test_support::ZipMember>& members) {
  auto bytes = test_support::build_zip(members);
  findings::Report r;
  binary::audit_wheel("ext.whl", bytes, classifier(), {}, r);
  return r;
}

const std::string kLib212 = elf_bytes({{"aoti_torch_dtype_float8_e8m0fnu"}, {"torch_library_impl"}});
const std::string kLib210 = elf_bytes({{"torch_library_impl"}});

}  // namespace

TEST(WheelAudit, LibraryMembers) {
  EXPECT_TRUE(binary::is_library_member("pkg/_C.cpython-311-x86_64-linux-gnu.so"));
  EXPECT_TRUE(binary::is_library_member("pkg.libs/libfoo-1a2b.so.1.13.0"));
  EXPECT_TRUE(binary::is_library_member("x.so"));
  EXPECT_FALSE(binary::is_library_member("pkg/.so"));
  EXPECT_FALSE(binary::is_library_member("pkg/x.so.py"));
  EXPECT_FALSE(binary::is_library_member("pkg/x.sofa"));
  EXPECT_FALSE(binary::is_library_member("pkg/so/readme"));
}

TEST(WheelAudit, RequirementTooOldFires) {
  auto r = audit({{"ext-1.0.dist-info/METADATA", metadata("torch>=2.10")}, {"ext/_C.so", kLib212}});
  ASSERT_EQ(r.subjects.size(), 2u);
  EXPECT_EQ(r.subjects[0].kind, "wheel");
  EXPECT_EQ(r.subjects[0].floor->str(), "2.12");
  EXPECT_EQ(r.subjects[0].floor_set_by, std::vector<std::string>{"ext/_C.so: aoti_torch_dtype_float8_e8m0fnu"});
  EXPECT_EQ(r.subjects[1].path, "ext.whl!ext/_C.so");
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.rule, "binary-wheel-requires-too-old");
  EXPECT_EQ(f.location.file, "ext.whl");
  EXPECT_EQ(f.location.member, "ext-1.0.dist-info/METADATA");
  EXPECT_EQ(f.message, "'torch>=2.10' allows torch 2.10, but the wheel's libraries need PyTorch >= 2.12");
}

TEST(WheelAudit, RequirementMatchingTheFloorIsClean) {
  EXPECT_TRUE(audit({{"ext-1.0.dist-info/METADATA", metadata("torch>=2.12")}, {"ext/_C.so", kLib212}}).findings.empty());
  EXPECT_TRUE(audit({{"ext-1.0.dist-info/METADATA", metadata("torch>=2.10")}, {"ext/_C.so", kLib210}}).findings.empty());
}

TEST(WheelAudit, MissingRequirementFires) {
  auto r = audit({{"ext-1.0.dist-info/METADATA", metadata("")}, {"ext/_C.so", kLib210}});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_NE(r.findings[0].message.find("does not require torch"), std::string::npos);
}

TEST(WheelAudit, FloorIsTheNewestAcrossLibraries) {
  auto r = audit({{"ext-1.0.dist-info/METADATA", metadata("torch>=2.10")},
                  {"ext/a.so", kLib210},
                  {"ext/b.so", kLib212}});
  EXPECT_EQ(r.subjects.size(), 3u);
  EXPECT_EQ(r.subjects[0].floor->str(), "2.12");
  EXPECT_EQ(r.findings.size(), 1u);
}

TEST(WheelAudit, BadMemberIsAFailureOthersStillAudited) {
  auto r = audit({{"ext-1.0.dist-info/METADATA", metadata("torch>=2.12")},
                  {"ext/broken.so", "not an elf"},
                  {"ext/_C.so", kLib212}});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].line(), "ext.whl!ext/broken.so: not an ELF file");
  EXPECT_EQ(r.subjects.size(), 2u);  // the wheel and ext/_C.so
}

TEST(WheelAudit, NoMetadataIsNotAWheel) {
  auto bytes = test_support::build_zip({{"ext/_C.so", kLib212}});
  findings::Report r;
  try {
    binary::audit_wheel("ext.whl", bytes, classifier(), {}, r);
    FAIL() << "accepted a zip without METADATA";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), "ext.whl: no <name>.dist-info/METADATA member: not a wheel");
  }
}

TEST(WheelAudit, PurePythonWheel) {
  auto r = audit({{"ext-1.0.dist-info/METADATA", metadata("")}, {"ext/__init__.py", ""}});
  ASSERT_EQ(r.subjects.size(), 1u);
  EXPECT_EQ(r.subjects[0].verdict, "NO-TORCH");
  EXPECT_EQ(r.subjects[0].loads_on, "any PyTorch release (no shared libraries)");
  EXPECT_TRUE(r.findings.empty());
}
