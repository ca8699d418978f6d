// What a child process hands its parent (and the cache stores) keeps every
// part of a fix-it: the fallback, the release it needs, the text it copies.
#include <gtest/gtest.h>

#include "analyzers/source/tu_result_json.h"

namespace torchabi::source {

TEST(TuResultJson, FixItsRoundTripWithTheirFallbackReleaseAndCopies) {
  TuResult r;
  r.subject.kind = "translation-unit";
  r.subject.path = "a.cpp";
  findings::Finding f;
  f.rule = "source-unstable-api";
  f.location = {"a.cpp", 3, 5, "", "at::TensorBase::data_ptr"};
  f.message = "m";
  f.fix = findings::FixIt{"a.cpp", 10, 18, "mutable_data_ptr", findings::FixSafety::Safe, "rename", {}, {}};
  f.fix->needs = TorchVersion::parse_dotted("2.10");
  f.fallback_fix = findings::FixIt{"a.cpp", 8, 28, "static_cast<float*>(x.data_ptr())", findings::FixSafety::Safe, "cast", {}, {}};
  f.fallback_fix->needs = TorchVersion::parse_dotted("2.9");
  f.fallback_fix->kept = {{8, 18, 20}};
  r.findings.push_back(f);

  const TuResult back = deserialize_tu_result(serialize_tu_result(r));
  ASSERT_EQ(back.findings.size(), 1u);
  const auto& g = back.findings[0];
  ASSERT_TRUE(g.fix && g.fallback_fix);
  EXPECT_EQ(g.fix->needs, TorchVersion::parse_dotted("2.10"));
  EXPECT_TRUE(g.fix->kept.empty());
  EXPECT_EQ(g.fallback_fix->replacement, "static_cast<float*>(x.data_ptr())");
  EXPECT_EQ(g.fallback_fix->needs, TorchVersion::parse_dotted("2.9"));
  ASSERT_EQ(g.fallback_fix->kept.size(), 1u);
  EXPECT_EQ(g.fallback_fix->kept[0], (findings::KeptText{8, 18, 20}));

  f.fallback_fix.reset();
  f.fix->needs.reset();
  r.findings = {f};
  const TuResult plain = deserialize_tu_result(serialize_tu_result(r));
  EXPECT_FALSE(plain.findings[0].fallback_fix);
  EXPECT_FALSE(plain.findings[0].fix->needs);
}

// File names are bytes: one that is not UTF-8, or that starts with the
// transport's own marker byte, comes back exactly; the text stays JSON.
TEST(TuResultJson, FileNamesThatAreNotUtf8RoundTripExactly) {
  TuResult r;
  r.subject.kind = "translation-unit";
  r.subject.path = "dir/x\xff" "y\nz.cpp";
  findings::Finding f;
  f.rule = "source-unstable-include";
  f.location = {r.subject.path, 1, 1, "", "ATen/ATen.h"};
  f.message = "includes <ATen/ATen.h> in \xc3\x28";  // an invalid two-byte sequence
  f.notes = {"\x01" "not hex", "plain \xc3\xa9"};       // a marker-led string; valid UTF-8 (é)
  r.findings.push_back(f);
  r.files_read = {r.subject.path, "/usr/include/\xed\xa0\x80.h"};  // an encoded surrogate is not UTF-8
  const std::string text = serialize_tu_result(r);
  EXPECT_EQ(text.find('\xff'), std::string::npos);
  const TuResult back = deserialize_tu_result(text);
  EXPECT_EQ(back.subject.path, r.subject.path);
  ASSERT_EQ(back.findings.size(), 1u);
  EXPECT_EQ(back.findings[0].location.file, r.subject.path);
  EXPECT_EQ(back.findings[0].message, f.message);
  EXPECT_EQ(back.findings[0].notes, f.notes);
  EXPECT_EQ(back.files_read, r.files_read);
}

}  // namespace torchabi::source
