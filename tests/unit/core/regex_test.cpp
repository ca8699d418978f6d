#include "common/regex.h"

#include <gtest/gtest.h>

namespace torchabi {
namespace {

TEST(Regex, WholeMatchAgainstSearch) {
  const Regex r("python3[0-9]+(_d)?\\.dll");
  EXPECT_TRUE(r.matches("python311.dll"));
  EXPECT_FALSE(r.matches("xpython311.dll"));  // matches() is anchored at both ends
  EXPECT_TRUE(r.contains("xpython311.dll"));
  EXPECT_FALSE(r.contains("python3.dll"));
}

TEST(Regex, GroupsAndWhetherTheyTookPart) {
  const Regex r("(#?)(0?)(\\d*)([xXd]?)");
  const auto m = r.match("#08x");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->size(), 5u);
  EXPECT_EQ((*m)[0], "#08x");
  EXPECT_EQ((*m)[1], "#");
  EXPECT_EQ((*m)[3], "8");
  EXPECT_EQ((*m)[4], "x");
  const Regex optional("a(b)?c");
  const auto n = optional.search("xxac");
  ASSERT_TRUE(n);
  EXPECT_FALSE(n->matched(1));
  EXPECT_EQ((*n)[1], "");
  EXPECT_EQ(n->position(), 2u);
  EXPECT_FALSE(n->matched(7));
  EXPECT_THROW((*n)[7], std::out_of_range);
}

TEST(Regex, SearchAllInOrderWithPositions) {
  const Regex r("-std=c\\+\\+(\\d+)");
  const auto all = r.search_all("g++ -std=c++17 -O2 -std=c++20");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0][1], "17");
  EXPECT_EQ(all[0].position(), 4u);
  EXPECT_EQ(all[1][0], "-std=c++20");
  EXPECT_TRUE(r.search_all("").empty());
  EXPECT_FALSE(r.search(""));
}

TEST(Regex, MultilineAnchorsAtLineBreaks) {
  const std::string text = "# comment\n__version__ = '2.14.1'\n";
  EXPECT_FALSE(Regex("^__version__").contains(text));
  EXPECT_TRUE(Regex("^__version__", Regex::kMultiline).contains(text));
}

TEST(Regex, SearchesInsideAStringViewOnly) {
  const std::string text = "abc123def";
  const std::string_view middle = std::string_view(text).substr(3, 3);
  EXPECT_TRUE(Regex("[0-9]+").matches(middle));
  EXPECT_FALSE(Regex("def").contains(middle));
}

TEST(Regex, BadPatternThrowsRegexError) {
  EXPECT_THROW(Regex("(unclosed"), RegexError);
  EXPECT_THROW(Regex("[z-a]"), RegexError);
}

TEST(Regex, MovedRegexKeepsWorking) {
  Regex a("x+");
  Regex b = std::move(a);
  EXPECT_TRUE(b.matches("xxx"));
}

}  // namespace
}  // namespace torchabi
