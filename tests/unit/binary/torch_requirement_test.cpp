// Which torch releases a wheel's Requires-Dist lets pip pick, and whether
// that includes releases older than the floor.
#include <gtest/gtest.h>

#include "analyzers/binary/torch_requirement.h"

using namespace torchabi;
using binary::parse_release;
using binary::torch_allowance;
using binary::TorchAllowance;

namespace {

TorchAllowance allowance(std::vector<std::string> requires_dist) {
  std::string text = "Name: w\n";
  for (const auto& r : requires_dist) text += "Requires-Dist: " + r + "\n";
  return torch_allowance(inputs::parse_wheel_metadata(text));
}

TorchVersion v(int major, int minor, int patch = 0) { return {major, minor, patch}; }

}  // namespace

TEST(TorchRequirement, ParseRelease) {
  EXPECT_EQ(parse_release("2.12"), v(2, 12));
  EXPECT_EQ(parse_release("2.12.1"), v(2, 12, 1));
  EXPECT_EQ(parse_release("2"), v(2, 0));
  EXPECT_EQ(parse_release("2.12.*"), v(2, 12));
  EXPECT_EQ(parse_release("2.12.0rc1"), v(2, 12));
  EXPECT_EQ(parse_release("2.12.0.dev20250101"), v(2, 12));
  EXPECT_EQ(parse_release("2.12.0+cu126"), v(2, 12));
  EXPECT_EQ(parse_release("0!2.12"), v(2, 12));
  EXPECT_EQ(parse_release("v2.12"), v(2, 12));
  EXPECT_FALSE(parse_release("1!2.0"));
  EXPECT_FALSE(parse_release("abc"));
  EXPECT_FALSE(parse_release("2.x"));
  EXPECT_FALSE(parse_release("999.1"));
}

TEST(TorchRequirement, LowerBounds) {
  auto a = allowance({"torch>=2.10"});
  EXPECT_EQ(a.kind, TorchAllowance::Kind::LowerBound);
  EXPECT_EQ(a.bound, v(2, 10));
  EXPECT_TRUE(a.inclusive);
  EXPECT_TRUE(a.allows_older_than(v(2, 12)));
  EXPECT_FALSE(a.allows_older_than(v(2, 10)));

  EXPECT_FALSE(allowance({"torch>=2.12"}).allows_older_than(v(2, 12)));
  EXPECT_FALSE(allowance({"torch~=2.12"}).allows_older_than(v(2, 12)));
  EXPECT_FALSE(allowance({"torch==2.12.*"}).allows_older_than(v(2, 12)));
  EXPECT_TRUE(allowance({"torch==2.11.*"}).allows_older_than(v(2, 12)));
  EXPECT_FALSE(allowance({"torch>=2.10,>=2.12"}).allows_older_than(v(2, 12)));  // both bounds apply
  EXPECT_TRUE(allowance({"torch (>=2.10,<3)"}).allows_older_than(v(2, 12)));
}

TEST(TorchRequirement, ExclusiveBoundStillAllowsPatchReleases) {
  auto a = allowance({"torch>2.11"});
  EXPECT_FALSE(a.inclusive);
  EXPECT_TRUE(a.allows_older_than(v(2, 12)));   // 2.11.1 is allowed
  EXPECT_FALSE(a.allows_older_than(v(2, 11, 1)));
}

TEST(TorchRequirement, NoBoundOrNoRequirementAllowsEverything) {
  EXPECT_EQ(allowance({"numpy"}).kind, TorchAllowance::Kind::NotDeclared);
  EXPECT_TRUE(allowance({"numpy"}).allows_older_than(v(2, 10)));
  EXPECT_EQ(allowance({"torch"}).kind, TorchAllowance::Kind::NoLowerBound);
  EXPECT_EQ(allowance({"torch<3,!=2.11"}).kind, TorchAllowance::Kind::NoLowerBound);
  // Only under an extra: a plain install has no torch requirement.
  EXPECT_EQ(allowance({"torch>=2.12; extra == 'cuda'"}).kind, TorchAllowance::Kind::NotDeclared);
}

TEST(TorchRequirement, MostPermissiveEnvironmentDecides) {
  auto a = allowance({"torch>=2.12; sys_platform == 'linux'", "torch>=2.10; sys_platform == 'darwin'"});
  EXPECT_EQ(a.bound, v(2, 10));
  EXPECT_EQ(a.requirement, "torch>=2.10; sys_platform == 'darwin'");
  EXPECT_EQ(allowance({"torch>=2.12; python_version < '3.12'", "torch; python_version >= '3.12'"}).kind,
            TorchAllowance::Kind::NoLowerBound);
}

TEST(TorchRequirement, UnknownIsNotChecked) {
  auto url = allowance({"torch @ https://example.invalid/torch.whl"});
  EXPECT_EQ(url.kind, TorchAllowance::Kind::Unknown);
  EXPECT_FALSE(url.allows_older_than(v(2, 12)));
  EXPECT_EQ(allowance({"torch>=1!2.0"}).kind, TorchAllowance::Kind::Unknown);
  EXPECT_EQ(allowance({"torch >= 2.10 garbage"}).kind, TorchAllowance::Kind::Unknown);  // unparsable, names torch
}

TEST(TorchRequirement, NamesAreNormalised) {
  EXPECT_EQ(allowance({"Torch>=2.12"}).kind, TorchAllowance::Kind::LowerBound);
  EXPECT_EQ(allowance({"torchvision>=0.20"}).kind, TorchAllowance::Kind::NotDeclared);
}
