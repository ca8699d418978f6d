// METADATA headers and PEP 508 requirement strings.
#include <gtest/gtest.h>

#include "inputs/wheel_metadata.h"

using namespace torchabi::inputs;

TEST(Requirement, NameAndSpecifiers) {
  auto r = parse_requirement("torch>=2.10,<3");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "torch");
  EXPECT_EQ(r->normalized, "torch");
  ASSERT_EQ(r->specifiers.size(), 2u);
  EXPECT_EQ(r->specifiers[0].op, ">=");
  EXPECT_EQ(r->specifiers[0].version, "2.10");
  EXPECT_EQ(r->specifiers[1].op, "<");
  EXPECT_EQ(r->specifiers[1].version, "3");
  EXPECT_TRUE(r->marker.empty());
}

TEST(Requirement, ParenthesisedOldStyleAndSpaces) {
  auto r = parse_requirement("  Torch ( >= 2.12 , != 2.12.1 )  ");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "Torch");
  EXPECT_EQ(r->normalized, "torch");
  ASSERT_EQ(r->specifiers.size(), 2u);
  EXPECT_EQ(r->specifiers[1].op, "!=");
  EXPECT_EQ(r->specifiers[1].version, "2.12.1");
}

TEST(Requirement, EveryOperator) {
  for (std::string op : {"~=", "==", "!=", "<=", ">=", "<", ">", "==="}) {
    auto r = parse_requirement("torch" + op + "2.12.*");
    ASSERT_TRUE(r) << op;
    ASSERT_EQ(r->specifiers.size(), 1u) << op;
    EXPECT_EQ(r->specifiers[0].op, op);
    EXPECT_EQ(r->specifiers[0].version, "2.12.*");
  }
}

TEST(Requirement, ExtrasMarkersAndUrls) {
  auto r = parse_requirement("torch[opt-einsum, cuda]>=2.10; python_version >= \"3.10\"");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->extras, (std::vector<std::string>{"opt-einsum", "cuda"}));
  EXPECT_EQ(r->marker, "python_version >= \"3.10\"");
  EXPECT_FALSE(r->needs_extra());

  auto e = parse_requirement("torch>=2.12 ; extra == 'cuda'");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->needs_extra());
  auto e2 = parse_requirement("torch; 'cuda' == extra and sys_platform == 'linux'");
  ASSERT_TRUE(e2);
  EXPECT_TRUE(e2->needs_extra());
  auto not_extra = parse_requirement("torch; platform_release == 'extras'");
  ASSERT_TRUE(not_extra);
  EXPECT_FALSE(not_extra->needs_extra());

  auto u = parse_requirement("torch @ https://example.invalid/torch-2.12.0.whl ; sys_platform == 'linux'");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->url, "https://example.invalid/torch-2.12.0.whl");
  EXPECT_EQ(u->marker, "sys_platform == 'linux'");
  EXPECT_TRUE(u->specifiers.empty());
}

TEST(Requirement, Rejects) {
  EXPECT_FALSE(parse_requirement(""));
  EXPECT_FALSE(parse_requirement(">=2.10"));
  EXPECT_FALSE(parse_requirement("torch>="));
  EXPECT_FALSE(parse_requirement("torch 2.10"));
  EXPECT_FALSE(parse_requirement("torch>=2.10,"));
  EXPECT_FALSE(parse_requirement("torch (>=2.10"));
  EXPECT_FALSE(parse_requirement("torch[cuda>=2"));
  EXPECT_FALSE(parse_requirement("torch;"));
  EXPECT_FALSE(parse_requirement("-torch"));
}

TEST(Requirement, NormalisesNames) {
  EXPECT_EQ(normalize_project_name("Torch_Vision..Extra"), "torch-vision-extra");
  EXPECT_EQ(normalize_project_name("torch"), "torch");
}

TEST(WheelMetadata, HeadersContinuationsAndBody) {
  const std::string text =
      "Metadata-Version: 2.1\r\n"
      "Name: my-ext\r\n"
      "Version: 1.2.3\r\n"
      "Requires-Dist: numpy\r\n"
      "Requires-Dist: torch>=2.10,\r\n"
      "  <3\r\n"
      "Requires-Dist: ???\r\n"
      "Summary: a summary\r\n"
      "\r\n"
      "Requires-Dist: torch<2 (in the description, not a header)\r\n";
  WheelMetadata md = parse_wheel_metadata(text);
  EXPECT_EQ(md.name, "my-ext");
  EXPECT_EQ(md.version, "1.2.3");
  ASSERT_EQ(md.requires_dist.size(), 2u);
  EXPECT_EQ(md.requires_dist[0].name, "numpy");
  EXPECT_EQ(md.requires_dist[1].text, "torch>=2.10, <3");
  ASSERT_EQ(md.requires_dist[1].specifiers.size(), 2u);
  EXPECT_EQ(md.unparsed_requires, std::vector<std::string>{"???"});
}

TEST(WheelMetadata, EmptyAndGarbageNeverThrow) {
  EXPECT_TRUE(parse_wheel_metadata("").requires_dist.empty());
  WheelMetadata md = parse_wheel_metadata("no colon here\n: empty key\nRequires-Dist:\n");
  EXPECT_TRUE(md.requires_dist.empty());
  EXPECT_EQ(md.unparsed_requires.size(), 1u);
}
