// Wheel compatibility tags: file names, WHEEL files, platform tags and the
// architectures they name.
#include <gtest/gtest.h>

#include "inputs/python/wheel_tags.h"

using namespace torchabi::inputs;
using Kind = PlatformTag::Kind;

TEST(WheelTags, FileNameTagsAreExpandedSets) {
  const WheelTags t =
      tags_from_wheel_filename("dist/my_ext-1.0-cp39.cp310-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl");
  EXPECT_EQ(t.python, (std::vector<std::string>{"cp39", "cp310"}));
  EXPECT_EQ(t.abi, (std::vector<std::string>{"abi3"}));
  ASSERT_EQ(t.platforms.size(), 2u);
  EXPECT_EQ(t.triples.size(), 4u);
  EXPECT_EQ(t.triples.front(), "cp310-abi3-manylinux2014_x86_64");
}

TEST(WheelTags, BuildTagIsNotATag) {
  const WheelTags t = tags_from_wheel_filename("my_ext-1.0-1build-cp311-cp311-win_amd64.whl");
  EXPECT_EQ(t.triples, (std::vector<std::string>{"cp311-cp311-win_amd64"}));
}

TEST(WheelTags, NamesWithoutTagsGiveNothing) {
  EXPECT_TRUE(tags_from_wheel_filename("a.whl").empty());
  EXPECT_TRUE(tags_from_wheel_filename("my_ext-1.0.whl").empty());
}

TEST(WheelTags, WheelFileTagLines) {
  const WheelTags t = tags_from_wheel_file(
      "Wheel-Version: 1.0\r\nGenerator: x\nTag: cp39-abi3-macosx_11_0_arm64\nTag:  cp39-abi3-macosx_10_9_x86_64 \n"
      "Tag: broken\n");
  EXPECT_EQ(t.triples.size(), 2u);
  ASSERT_EQ(t.platforms.size(), 2u);
  EXPECT_EQ(t.platforms[1].text, "macosx_10_9_x86_64");
  EXPECT_EQ(t.abi, (std::vector<std::string>{"abi3"}));
}

TEST(PlatformTags, ManylinuxLegacyAliasesNameTheirGlibc) {
  const PlatformTag t = parse_platform_tag("manylinux2014_aarch64");
  EXPECT_EQ(t.kind, Kind::Manylinux);
  EXPECT_EQ(t.policy, "manylinux_2_17");
  EXPECT_EQ(t.arch, "aarch64");
  EXPECT_EQ(parse_platform_tag("manylinux1_x86_64").policy, "manylinux_2_5");
  EXPECT_EQ(parse_platform_tag("manylinux2010_x86_64").policy, "manylinux_2_12");
}

TEST(PlatformTags, Pep600MusllinuxMacosWindows) {
  PlatformTag t = parse_platform_tag("manylinux_2_28_x86_64");
  EXPECT_EQ(t.kind, Kind::Manylinux);
  EXPECT_EQ(t.major, 2);
  EXPECT_EQ(t.minor, 28);
  EXPECT_EQ(t.arch, "x86_64");
  t = parse_platform_tag("musllinux_1_2_aarch64");
  EXPECT_EQ(t.kind, Kind::Musllinux);
  EXPECT_EQ(t.policy, "musllinux_1_2");
  t = parse_platform_tag("macosx_10_9_universal2");
  EXPECT_EQ(t.kind, Kind::MacOS);
  EXPECT_EQ(t.major, 10);
  EXPECT_EQ(t.minor, 9);
  EXPECT_EQ(t.arch, "universal2");
  EXPECT_EQ(parse_platform_tag("win_amd64").kind, Kind::Windows);
  EXPECT_EQ(parse_platform_tag("win32").arch, "win32");
  EXPECT_EQ(parse_platform_tag("linux_x86_64").kind, Kind::Linux);
  EXPECT_EQ(parse_platform_tag("any").kind, Kind::Any);
}

TEST(PlatformTags, MalformedTagsAreOther) {
  for (const char* s : {"manylinux_2_x86_64", "manylinux_a_b_x86_64", "macosx_11_0_", "emscripten_3_1_wasm32", ""})
    EXPECT_EQ(parse_platform_tag(s).kind, Kind::Other) << s;
}

TEST(PlatformTags, ArchitecturesMatchEveryReadersSpelling) {
  EXPECT_TRUE(tag_allows_machine(parse_platform_tag("manylinux_2_28_x86_64"), "x86-64"));
  EXPECT_TRUE(tag_allows_machine(parse_platform_tag("manylinux_2_28_aarch64"), "AArch64"));
  EXPECT_FALSE(tag_allows_machine(parse_platform_tag("manylinux_2_28_aarch64"), "x86-64"));
  EXPECT_TRUE(tag_allows_machine(parse_platform_tag("macosx_11_0_arm64"), "arm64"));
  EXPECT_TRUE(tag_allows_machine(parse_platform_tag("macosx_11_0_universal2"), "x86-64"));
  EXPECT_TRUE(tag_allows_machine(parse_platform_tag("macosx_11_0_universal2"), "arm64"));
  EXPECT_TRUE(tag_allows_machine(parse_platform_tag("win_amd64"), "x86-64"));
  EXPECT_FALSE(tag_allows_machine(parse_platform_tag("win_arm64"), "x86-64"));
  EXPECT_TRUE(tag_allows_machine(parse_platform_tag("win32"), "x86"));
}
