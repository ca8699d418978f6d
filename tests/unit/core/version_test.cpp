#include <gtest/gtest.h>

#include "common/version.h"

using torchabi::read_target_version;
using torchabi::TorchVersion;

static const TorchVersion kLatest{2, 14, 0};

TEST(TorchVersion, EncodesLikeTorchAbiVersion) {
  TorchVersion v{2, 10, 0};
  EXPECT_EQ(v.encoded(), (uint64_t(2) << 56) | (uint64_t(10) << 48));
  EXPECT_EQ(v.hex(), "0x020a000000000000");
  EXPECT_EQ(TorchVersion::decode(v.encoded()), v);
  EXPECT_EQ(TorchVersion::decode(0x0209010000000000ULL), (TorchVersion{2, 9, 1}));
}

TEST(TorchVersion, ParsesDottedForms) {
  EXPECT_EQ(TorchVersion::parse_dotted("2.10"), (TorchVersion{2, 10, 0}));
  EXPECT_EQ(TorchVersion::parse_dotted("2.10.1"), (TorchVersion{2, 10, 1}));
  EXPECT_EQ(TorchVersion::parse_dotted("TORCH_VERSION_2_12_0"), (TorchVersion{2, 12, 0}));
  EXPECT_EQ(TorchVersion::parse_dotted("2.10.0+cu126"), (TorchVersion{2, 10, 0}));
  EXPECT_EQ(TorchVersion::parse_dotted("2.11.0a0"), (TorchVersion{2, 11, 0}));
  EXPECT_FALSE(TorchVersion::parse_dotted("2"));
  EXPECT_FALSE(TorchVersion::parse_dotted("two.ten"));
  EXPECT_FALSE(TorchVersion::parse_dotted("2.10-x"));
  EXPECT_FALSE(TorchVersion::parse_dotted("2.300"));
}

TEST(TorchVersion, OrdersNumericallyNotLexically) {
  EXPECT_LT((TorchVersion{2, 9, 0}), (TorchVersion{2, 10, 0}));
  EXPECT_EQ((TorchVersion{2, 10, 0}).str(), "2.10");
  EXPECT_EQ((TorchVersion{2, 10, 3}).str(), "2.10.3");
}

TEST(TargetVersion, AcceptsAllThreeSpellings) {
  for (const char* s : {"2.10", "2.10.0", "0x020a000000000000", "0x020a000000000000ULL"}) {
    auto r = read_target_version(s, kLatest);
    EXPECT_TRUE(r.error.empty()) << s << ": " << r.error;
    EXPECT_EQ(r.version, (TorchVersion{2, 10, 0})) << s;
  }
}

TEST(TargetVersion, DecimalDigitsInHexShowBothReadings) {
  auto r = read_target_version("0x0210000000000000", kLatest);
  EXPECT_FALSE(r.version);
  EXPECT_NE(r.error.find("decodes to 2.16"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("if you meant 2.10, write 0x020a000000000000"), std::string::npos) << r.error;
}

TEST(TargetVersion, RejectsGarbageAndLowBits) {
  EXPECT_FALSE(read_target_version("banana", kLatest).version);
  EXPECT_FALSE(read_target_version("0x020a000000000001", kLatest).version);
  EXPECT_FALSE(read_target_version("1.13", kLatest).error.empty());
}

TEST(TorchVersion, ReadsAVersionHeader) {
  EXPECT_EQ(TorchVersion::from_version_header("#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION_MINOR 14\n"
                                              "#define TORCH_VERSION_PATCH 1\n"),
            (TorchVersion{2, 14, 1}));
  // Spacing as a formatter may leave it; no patch reads as .0.
  EXPECT_EQ(TorchVersion::from_version_header("#  define  TORCH_VERSION_MINOR 9\n# define TORCH_VERSION_MAJOR 2\n"),
            (TorchVersion{2, 9, 0}));
  EXPECT_FALSE(TorchVersion::from_version_header("#define TORCH_VERSION_MAJOR 2\n"));
  EXPECT_FALSE(TorchVersion::from_version_header(""));
}
