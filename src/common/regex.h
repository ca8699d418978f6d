// A compiled regular expression (ECMAScript grammar, std::regex underneath)
// behind a small interface. <regex> costs about 4 s of -O2 code generation in
// every translation unit that instantiates it (bench/build); behind this
// header it is instantiated once, in regex.cpp, instead of in every unity
// batch whose files use a pattern.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace torchabi {

// A pattern that does not compile; what() is std::regex_error's message.
struct RegexError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One match: group 0 is the whole match; a group that did not take part is
// "" and !matched(i).
class RegexMatch {
 public:
  RegexMatch(std::vector<std::string> groups, std::vector<bool> taken, size_t position)
      : groups_(std::move(groups)), taken_(std::move(taken)), position_(position) {}
  const std::string& operator[](size_t i) const { return groups_.at(i); }
  bool matched(size_t i) const { return i < taken_.size() && taken_[i]; }
  size_t size() const { return groups_.size(); }
  size_t position() const { return position_; }  // of group 0 in the text

 private:
  std::vector<std::string> groups_;
  std::vector<bool> taken_;
  size_t position_ = 0;
};

class Regex {
 public:
  enum Flags : unsigned {
    kNone = 0,
    kMultiline = 1,  // ^ and $ match at line breaks too
  };
  // Throws RegexError when `pattern` is not a valid ECMAScript pattern.
  explicit Regex(std::string_view pattern, unsigned flags = kNone);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // Whether the whole of `text` matches.
  bool matches(std::string_view text) const;
  // The match of the whole of `text`, with its groups.
  std::optional<RegexMatch> match(std::string_view text) const;
  // Whether some part of `text` matches.
  bool contains(std::string_view text) const;
  // The first match in `text`.
  std::optional<RegexMatch> search(std::string_view text) const;
  // Every non-overlapping match in `text`, in order.
  std::vector<RegexMatch> search_all(std::string_view text) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace torchabi
