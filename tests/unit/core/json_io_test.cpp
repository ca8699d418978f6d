#include "common/json_io.h"

#include <gtest/gtest.h>

#include <sstream>

namespace torchabi {
namespace {

TEST(JsonIo, ParseAndDumpRoundTrip) {
  const nlohmann::json j = json_io::parse(R"({"b": [1, 2], "a": "x"})");
  EXPECT_EQ(j.at("a"), "x");
  EXPECT_EQ(json_io::dump(j), R"({"a":"x","b":[1,2]})");
  EXPECT_EQ(json_io::dump(j, 2), "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    2\n  ]\n}");
  EXPECT_EQ(json_io::parse(json_io::dump(j, 2)), j);
}

TEST(JsonIo, ParseErrorsThrowOrDiscard) {
  EXPECT_THROW(json_io::parse("{\"a\": "), nlohmann::json::parse_error);
  EXPECT_TRUE(json_io::parse_or_discarded("{\"a\": ").is_discarded());
  EXPECT_FALSE(json_io::parse_or_discarded("[]").is_discarded());
}

TEST(JsonIo, ParsesTheRestOfAStream) {
  std::istringstream in(R"({"fingerprints": ["f1"]})");
  EXPECT_EQ(json_io::parse(in).at("fingerprints").at(0), "f1");
  std::istringstream bad("not json");
  EXPECT_THROW(json_io::parse(bad), nlohmann::json::parse_error);
}

TEST(JsonIo, LossyDumpReplacesInvalidUtf8) {
  const nlohmann::json j = {{"out", std::string("a\xff") + "b"}};
  // Never a type_error 316 for a file name that is not UTF-8: both replace
  // (reports carry the exact bytes beside the string, reporters/path_bytes.h).
  EXPECT_EQ(json_io::dump(j), "{\"out\":\"a\xEF\xBF\xBD" "b\"}");
  EXPECT_EQ(json_io::dump_lossy(j), "{\"out\":\"a\xEF\xBF\xBD" "b\"}");
}

}  // namespace
}  // namespace torchabi
