#include "inputs/project/environment/python_specifier.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <tuple>

#include "common/text.h"

namespace torchabi::inputs {

namespace {

// A cursor over a lower-cased version text.
struct VersionCursor {
  std::string s;
  size_t i = 0;
  bool done() const { return i >= s.size(); }
  bool digit() const { return !done() && std::isdigit(static_cast<unsigned char>(s[i])); }
  bool take(char c) {
    if (done() || s[i] != c) return false;
    ++i;
    return true;
  }
  bool take_separator() { return take('.') || take('-') || take('_'); }
  bool take_word(std::string_view w) {
    if (s.compare(i, w.size(), w) != 0) return false;
    i += w.size();
    return true;
  }
  std::optional<long> number() {
    if (!digit()) return std::nullopt;
    long n = 0;
    while (digit()) {
      if (n > (LONG_MAX - 9) / 10) return std::nullopt;  // absurd, not a version
      n = n * 10 + (s[i++] - '0');
    }
    return n;
  }
};

// The pre-release words PEP 440 accepts, longest first, with their kind.
std::optional<int> take_pre_word(VersionCursor& c) {
  static const std::pair<const char*, int> kWords[] = {{"preview", 2}, {"alpha", 0}, {"beta", 1}, {"pre", 2},
                                                       {"rc", 2},      {"a", 0},     {"b", 1},    {"c", 2}};
  for (const auto& [w, kind] : kWords)
    if (c.take_word(w)) return kind;
  return std::nullopt;
}

// Tries the optional segment that `parse` reads; restores the cursor when it fails.
template <typename F>
bool optional_segment(VersionCursor& c, F parse) {
  const size_t at = c.i;
  if (parse()) return true;
  c.i = at;
  return false;
}

// packaging's ordering key. Sentinels stand for -inf/+inf.
constexpr long kNegInf = LONG_MIN;
constexpr long kPosInf = LONG_MAX;

std::tuple<long, std::vector<long>, int, long, long, long> order_key(const Pep440Version& v) {
  std::vector<long> release = v.release;
  while (!release.empty() && release.back() == 0) release.pop_back();
  int pre_kind;
  long pre_n = 0;
  if (!v.pre && !v.post && v.dev) pre_kind = -1;  // 1.0.dev0 sorts before 1.0a0
  else if (!v.pre) pre_kind = 3;                  // a final release after its pre-releases
  else {
    pre_kind = v.pre->first;
    pre_n = v.pre->second;
  }
  const long post = v.post ? *v.post : kNegInf;
  const long dev = v.dev ? *v.dev : kPosInf;
  return {v.epoch, release, pre_kind, pre_n, post, dev};
}

// The first `n` release numbers, zero-padded.
std::vector<long> release_prefix(const Pep440Version& v, size_t n) {
  std::vector<long> r = v.release;
  r.resize(std::max(n, r.size()), 0);
  r.resize(n);
  return r;
}

bool prefix_matches(const Pep440Version& v, const Pep440Version& prefix) {
  return v.epoch == prefix.epoch && release_prefix(v, prefix.release.size()) == prefix.release;
}

Pep440Version final_of(const Pep440Version& v) {
  Pep440Version f;
  f.epoch = v.epoch;
  f.release = v.release;
  return f;
}

bool clause_allows(const VersionClause& c, const Pep440Version& v) {
  const int cmp = compare_versions(v, c.version);
  if (c.op == "===") return text::trim(c.text) == v.str();
  if (c.op == "==") return c.wildcard ? prefix_matches(v, c.version) : cmp == 0;
  if (c.op == "!=") return c.wildcard ? !prefix_matches(v, c.version) : cmp != 0;
  if (c.op == ">=") return cmp >= 0;
  if (c.op == "<=") return cmp <= 0;
  if (c.op == "<") {
    // <3.13 does not allow 3.13.0rc1, unless it names a pre-release itself.
    if (cmp >= 0) return false;
    return c.version.prerelease() || !v.prerelease() || compare_versions(final_of(v), final_of(c.version)) != 0;
  }
  if (c.op == ">") {
    // >3.12 does not allow 3.12.post1, unless it names a post-release itself.
    if (cmp <= 0) return false;
    return c.version.post || !v.post || compare_versions(final_of(v), final_of(c.version)) != 0;
  }
  if (c.op == "~=") {
    // ~=3.10.2: >=3.10.2, ==3.10.*
    Pep440Version prefix;
    prefix.epoch = c.version.epoch;
    prefix.release.assign(c.version.release.begin(), c.version.release.end() - 1);
    return cmp >= 0 && prefix_matches(v, prefix);
  }
  return false;
}

}  // namespace

std::string Pep440Version::str() const {
  std::string out = epoch ? std::to_string(epoch) + "!" : "";
  for (size_t i = 0; i < release.size(); ++i) out += (i ? "." : "") + std::to_string(release[i]);
  if (pre) out += std::string(pre->first == 0 ? "a" : pre->first == 1 ? "b" : "rc") + std::to_string(pre->second);
  if (post) out += ".post" + std::to_string(*post);
  if (dev) out += ".dev" + std::to_string(*dev);
  return out;
}

std::optional<Pep440Version> parse_pep440_version(std::string_view text) {
  VersionCursor c;
  c.s = std::string(text::trim(text));
  std::transform(c.s.begin(), c.s.end(), c.s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  Pep440Version v;
  c.take('v');
  auto first = c.number();
  if (!first) return std::nullopt;
  if (c.take('!')) {
    v.epoch = *first;
    first = c.number();
    if (!first) return std::nullopt;
  }
  v.release.push_back(*first);
  while (optional_segment(c, [&] {
    if (!c.take('.')) return false;
    auto n = c.number();
    if (n) v.release.push_back(*n);
    return n.has_value();
  })) {
  }
  optional_segment(c, [&] {
    c.take_separator();
    auto kind = take_pre_word(c);
    if (!kind) return false;
    c.take_separator();
    v.pre = std::make_pair(*kind, c.number().value_or(0));
    return true;
  });
  optional_segment(c, [&] {
    if (c.take('-')) {
      if (auto n = c.number()) {  // 1.0-1: an implicit post-release
        v.post = n;
        return true;
      }
      --c.i;
    }
    c.take_separator();
    if (!c.take_word("post") && !c.take_word("rev") && !c.take_word("r")) return false;
    c.take_separator();
    v.post = c.number().value_or(0);
    return true;
  });
  optional_segment(c, [&] {
    c.take_separator();
    if (!c.take_word("dev")) return false;
    c.take_separator();
    v.dev = c.number().value_or(0);
    return true;
  });
  if (c.take('+')) {  // a local version: ignored in comparisons, but must be well formed
    if (c.done()) return std::nullopt;
    while (!c.done()) {
      const char ch = c.s[c.i++];
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '-' && ch != '_') return std::nullopt;
    }
  }
  if (!c.done()) return std::nullopt;
  return v;
}

int compare_versions(const Pep440Version& a, const Pep440Version& b) {
  const auto ka = order_key(a), kb = order_key(b);
  return ka < kb ? -1 : kb < ka ? 1 : 0;
}

bool VersionSpecifier::allows(const Pep440Version& v) const {
  if (v.prerelease()) {
    const bool names_pre = std::any_of(clauses.begin(), clauses.end(),
                                       [](const VersionClause& c) { return c.version.prerelease(); });
    if (!names_pre) return false;
  }
  return std::all_of(clauses.begin(), clauses.end(), [&](const VersionClause& c) { return clause_allows(c, v); });
}

SpecifierParse parse_version_specifier(std::string_view text) {
  SpecifierParse out;
  VersionSpecifier spec;
  spec.text = std::string(text::trim(text));
  if (spec.text.empty()) {
    out.error = "it is empty";
    return out;
  }
  static const char* const kOps[] = {"===", "~=", "==", "!=", "<=", ">=", "<", ">"};
  for (std::string_view part : text::split(spec.text, ',')) {
    const std::string clause(text::trim(part));
    if (clause.empty()) {
      out.error = "an empty clause between commas";
      return out;
    }
    VersionClause c;
    for (const char* op : kOps)
      if (clause.starts_with(op)) {
        c.op = op;
        break;
      }
    if (c.op.empty()) {
      out.error = "'" + clause + "' has no operator (>=, <, ==, !=, ~=, ...)";
      return out;
    }
    c.text = std::string(text::trim(std::string_view(clause).substr(c.op.size())));
    if (c.op == "===") {  // arbitrary equality: compared as text, whatever it is
      if (c.text.empty()) {
        out.error = "'" + clause + "' names no version";
        return out;
      }
      spec.clauses.push_back(std::move(c));
      continue;
    }
    std::string version = c.text;
    if (version.ends_with(".*")) {
      if (c.op != "==" && c.op != "!=") {
        out.error = "'" + clause + "': a wildcard goes only with == and !=";
        return out;
      }
      c.wildcard = true;
      version.resize(version.size() - 2);
    }
    auto v = parse_pep440_version(version);
    if (!v || (c.wildcard && (v->pre || v->post || v->dev))) {
      out.error = "'" + clause + "': '" + c.text + "' is not a version";
      return out;
    }
    if (c.op == "~=" && v->release.size() < 2) {
      out.error = "'" + clause + "': ~= needs at least two numbers (~=3.10)";
      return out;
    }
    c.version = *v;
    spec.clauses.push_back(std::move(c));
  }
  out.specifier = std::move(spec);
  return out;
}

}  // namespace torchabi::inputs
