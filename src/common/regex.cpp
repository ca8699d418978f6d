#include "common/regex.h"

#include <regex>

namespace torchabi {

struct Regex::Impl {
  std::regex re;
};

namespace {

template <typename Results>
RegexMatch to_match(const Results& m, const char* begin) {
  std::vector<std::string> groups;
  std::vector<bool> taken;
  groups.reserve(m.size());
  for (size_t i = 0; i < m.size(); ++i) {
    groups.push_back(m[i].matched ? m[i].str() : std::string());
    taken.push_back(m[i].matched);
  }
  return RegexMatch(std::move(groups), std::move(taken), size_t(m[0].first - begin));
}

}  // namespace

Regex::Regex(std::string_view pattern, unsigned flags) {
  auto syntax = std::regex::ECMAScript;
  if (flags & kMultiline) syntax |= std::regex::multiline;
  try {
    impl_ = std::make_unique<Impl>(Impl{std::regex(pattern.begin(), pattern.end(), syntax)});
  } catch (const std::regex_error& e) {
    throw RegexError(e.what());
  }
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::matches(std::string_view text) const {
  return std::regex_match(text.begin(), text.end(), impl_->re);
}

std::optional<RegexMatch> Regex::match(std::string_view text) const {
  std::cmatch m;
  if (!std::regex_match(text.data(), text.data() + text.size(), m, impl_->re)) return std::nullopt;
  return to_match(m, text.data());
}

bool Regex::contains(std::string_view text) const {
  return std::regex_search(text.begin(), text.end(), impl_->re);
}

std::optional<RegexMatch> Regex::search(std::string_view text) const {
  std::cmatch m;
  if (!std::regex_search(text.data(), text.data() + text.size(), m, impl_->re)) return std::nullopt;
  return to_match(m, text.data());
}

std::vector<RegexMatch> Regex::search_all(std::string_view text) const {
  std::vector<RegexMatch> out;
  const char* begin = text.data();
  for (std::cregex_iterator it(begin, begin + text.size(), impl_->re), end; it != end; ++it)
    out.push_back(to_match(*it, begin));
  return out;
}

}  // namespace torchabi
