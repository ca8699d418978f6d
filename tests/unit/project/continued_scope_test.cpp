// A prerequisite the configure continued past changes only the targets that
// use it (inputs/project/continued_scope.h): the others keep resolved flags.
#include <gtest/gtest.h>

#include "inputs/project/continued_scope.h"

namespace torchabi::inputs {
namespace {

size_t affecting(const std::vector<ContinuedPast>& continued, const std::string& target) {
  return continued_affecting(continued, target).size();
}

TEST(ContinuedScope, APackageLinkedByOneTargetChangesOnlyThatTarget) {
  const std::vector<ContinuedPast> continued = {{"find_package", "CMakeLists.txt", "Codec"},
                                                {"target", "image_ops", "Codec::codec"}};
  EXPECT_EQ(affecting(continued, "image_ops"), 2u);
  EXPECT_EQ(affecting(continued, "math_ops"), 0u);
}

TEST(ContinuedScope, ANotFoundValueChangesTheTargetThatUsesIt) {
  const std::vector<ContinuedPast> continued = {{"find_package", "CMakeLists.txt", "Codec"},
                                                {"notfound", "image_ops", "/src/CODEC_LIBRARY-NOTFOUND"}};
  EXPECT_EQ(affecting(continued, "image_ops"), 2u);
  EXPECT_EQ(affecting(continued, "math_ops"), 0u);
}

// Nothing says who reads what the package sets, or what a project skips
// after its own FATAL_ERROR: every target.
TEST(ContinuedScope, WhatNoTargetIsSeenToUseChangesEveryTarget) {
  EXPECT_EQ(affecting({{"find_package", "CMakeLists.txt", "Codec"}}, "math_ops"), 1u);
  EXPECT_EQ(affecting({{"message", "CMakeLists.txt", "libcodec not found"}, {"target", "image_ops", "Codec::codec"}},
                      "math_ops"),
            1u);
  // Another package's target says nothing of this one.
  EXPECT_EQ(affecting({{"find_package", "CMakeLists.txt", "Codec"}, {"target", "image_ops", "Other::other"}},
                      "math_ops"),
            1u);
}

}  // namespace
}  // namespace torchabi::inputs
