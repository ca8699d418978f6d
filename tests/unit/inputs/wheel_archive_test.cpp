// WheelArchive: members read in memory; bad archives and unsafe member paths
// are one InputError naming the wheel.
#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/wheel_archive.h"
#include "zip_builder.h"

using torchabi::InputError;
using torchabi::inputs::safe_member_path;
using torchabi::inputs::WheelArchive;
using torchabi::test_support::build_zip;
using torchabi::test_support::find_bytes;

namespace {

std::vector<torchabi::test_support::ZipMember> sample() {
  return {{"pkg/", ""},
          {"pkg/__init__.py", "# package\n"},
          {"pkg/_C.so", "\x7f" "ELF pretend library bytes"},
          {"pkg-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n"},
          {"pkg-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\n"}};
}

std::string open_error(const std::vector<std::byte>& bytes) {
  try {
    WheelArchive w(bytes, "w.whl");
    for (const auto& m : w.members()) (void)w.read(m);
    return "";
  } catch (const InputError& e) {
    return e.line();
  }
}

}  // namespace

TEST(WheelArchive, ListsFilesAndFindsMetadata) {
  auto bytes = build_zip(sample());
  WheelArchive w(bytes, "w.whl");
  ASSERT_EQ(w.members().size(), 4u);  // the directory entry is not a member
  EXPECT_EQ(w.members()[1].name, "pkg/_C.so");
  EXPECT_EQ(w.members()[1].size, 26u);
  ASSERT_NE(w.metadata(), nullptr);
  EXPECT_EQ(w.metadata()->name, "pkg-1.0.dist-info/METADATA");
  EXPECT_EQ(w.read_text(*w.metadata()), "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n");
  auto lib = w.read(w.members()[1]);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(lib.data()), lib.size()), "\x7f" "ELF pretend library bytes");
}

TEST(WheelArchive, MetadataOnlyFromTheRootDistInfo) {
  auto bytes = build_zip({{"pkg/vendored-1.0.dist-info/METADATA", "x"}, {"pkg/METADATA", "y"}});
  WheelArchive w(bytes, "w.whl");
  EXPECT_EQ(w.metadata(), nullptr);
}

TEST(WheelArchive, NotAZip) {
  std::string s = "this is not a zip file at all, just text long enough to look for a directory";
  std::vector<std::byte> b(s.size());
  std::memcpy(b.data(), s.data(), s.size());
  EXPECT_EQ(open_error(b), "w.whl: not a zip archive (a wheel is a zip file)");
  EXPECT_EQ(open_error({}), "w.whl: not a zip archive (empty file)");
}

TEST(WheelArchive, CorruptCentralDirectory) {
  auto bytes = build_zip(sample());
  const size_t cd = find_bytes(bytes, "PK\x01\x02");
  ASSERT_NE(cd, std::string::npos);
  bytes[cd + 2] = std::byte{0x7f};
  const std::string err = open_error(bytes);
  EXPECT_EQ(err.rfind("w.whl: ", 0), 0u) << err;
  EXPECT_NE(err.find("zip archive"), std::string::npos) << err;
}

TEST(WheelArchive, CorruptMemberDataFailsItsCrc) {
  auto bytes = build_zip(sample());
  const size_t at = find_bytes(bytes, "pretend");
  ASSERT_NE(at, std::string::npos);
  bytes[at] = std::byte{'P'};
  WheelArchive w(bytes, "w.whl");
  try {
    (void)w.read(w.members()[1]);
    FAIL() << "corrupt member was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), "w.whl!pkg/_C.so");
    EXPECT_NE(std::string(e.what()).find("CRC"), std::string::npos) << e.what();
  }
}

TEST(WheelArchive, RejectsPathsThatEscapeTheArchive) {
  EXPECT_EQ(open_error(build_zip({{"../evil.so", "x"}})),
            "w.whl: unsafe member path '../evil.so' (absolute or with '..'); not a valid wheel");
  EXPECT_NE(open_error(build_zip({{"/etc/evil.so", "x"}})).find("unsafe member path '/etc/evil.so'"), std::string::npos);
  EXPECT_NE(open_error(build_zip({{"pkg/../../evil.so", "x"}})).find("unsafe member path"), std::string::npos);
}

TEST(WheelArchive, SafeMemberPaths) {
  EXPECT_TRUE(safe_member_path("pkg/_C.so"));
  EXPECT_TRUE(safe_member_path("pkg/..hidden/x"));
  EXPECT_TRUE(safe_member_path("a..b"));
  EXPECT_FALSE(safe_member_path(""));
  EXPECT_FALSE(safe_member_path(".."));
  EXPECT_FALSE(safe_member_path("a/../b"));
  EXPECT_FALSE(safe_member_path("a/.."));
  EXPECT_FALSE(safe_member_path("/abs"));
  EXPECT_FALSE(safe_member_path("a\\..\\b"));
}

TEST(WheelArchive, RefusesMembersOverTheSizeLimit) {
  auto bytes = build_zip(sample());
  WheelArchive w(bytes, "w.whl");
  try {
    (void)w.read(w.members()[1], 8);
    FAIL() << "limit ignored";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), "w.whl!pkg/_C.so: member of 26 bytes exceeds the 8-byte limit");
  }
}

TEST(WheelArchive, EveryPrefixIsAnErrorOrAnArchive) {
  auto bytes = build_zip(sample());
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<std::byte> cut(bytes.begin(), bytes.begin() + long(n));
    EXPECT_FALSE(open_error(cut).empty()) << "prefix of " << n << " bytes opened";
  }
  EXPECT_EQ(open_error(bytes), "");
}
