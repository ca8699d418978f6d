// The results cache: hit when the TU's inputs are unchanged (even if only
// touched), miss when a header's content changes or a missing header appears.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "analyzers/source/result_cache.h"

namespace torchabi::source {
namespace {

namespace fs = std::filesystem;

struct CacheFixture : ::testing::Test {
  fs::path dir = fs::path(::testing::TempDir()) / ("cache_" + std::to_string(::getpid()) + "_" +
                                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir / "src");
    std::ofstream(dir / "src/a.h") << "int a();\n";
  }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(CacheFixture, UnchangedInputsHit) {
  ResultCache cache((dir / "cache").string());
  cache.store("k1", {(dir / "src/a.h").string()}, {(dir / "src/b.h").string()}, "payload-1");
  EXPECT_EQ(cache.load("k1"), std::optional<std::string>("payload-1"));
  EXPECT_EQ(cache.load("other"), std::nullopt);
}

TEST_F(CacheFixture, TouchedButIdenticalStillHits) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {}, "p");
  fs::last_write_time(dir / "src/a.h", fs::last_write_time(dir / "src/a.h") + std::chrono::seconds(5));
  EXPECT_EQ(cache.load("k"), std::optional<std::string>("p"));
}

TEST_F(CacheFixture, ChangedContentMisses) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {}, "p");
  std::ofstream(dir / "src/a.h") << "int b();\n";  // same size, different content
  fs::last_write_time(dir / "src/a.h", fs::last_write_time(dir / "src/a.h") + std::chrono::seconds(5));
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

TEST_F(CacheFixture, AppearingHeaderMisses) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {(dir / "src/a.h").string()}, {(dir / "src/missing.h").string()}, "p");
  ASSERT_TRUE(cache.load("k"));
  std::ofstream(dir / "src/missing.h") << "\n";
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

TEST_F(CacheFixture, CorruptEntryIsAMiss) {
  ResultCache cache((dir / "cache").string());
  cache.store("k", {}, {}, "p");
  std::ofstream(dir / "cache/k.json") << "{not json";
  EXPECT_EQ(cache.load("k"), std::nullopt);
}

}  // namespace
}  // namespace torchabi::source
