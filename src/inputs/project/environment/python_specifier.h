// PEP 440 versions and version specifiers, as far as choosing a Python
// interpreter needs them: a project's `requires-python = ">=3.10,!=3.11.*"`
// evaluated against the version an interpreter reports. Debian packages no
// C or C++ implementation (pip's `packaging` is Python, and asking an
// interpreter to evaluate which interpreter to run would need one that runs
// first), so this is a small one of its own, with packaging's ordering:
// 1.0.dev0 < 1.0a1 < 1.0rc1 < 1.0 < 1.0.post1, trailing zeros ignored
// (3.12 == 3.12.0), local versions (+abc) ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

struct Pep440Version {
  long epoch = 0;
  std::vector<long> release;  // 3.12.1 -> {3, 12, 1}
  // a, b, rc as 0, 1, 2 with their number; unset for a final release.
  std::optional<std::pair<int, long>> pre;
  std::optional<long> post;
  std::optional<long> dev;
  bool prerelease() const { return pre.has_value() || dev.has_value(); }
  std::string str() const;  // normalized: "3.12.1", "3.13.0rc1"
};

// Parses a version in any spelling PEP 440 normalizes ("v3.12", "3.13.0-RC1",
// "1.0.post2", "2!1.0"); nullopt when it is not one.
std::optional<Pep440Version> parse_pep440_version(std::string_view text);

// <0, 0, >0 as packaging orders versions.
int compare_versions(const Pep440Version& a, const Pep440Version& b);

struct VersionClause {
  std::string op;  // ===, ~=, ==, !=, <=, >=, <, >
  Pep440Version version;
  bool wildcard = false;  // ==3.12.* / !=3.11.*
  std::string text;       // the version as written (for ===)
};

// Comma-joined clauses, all of which must hold.
struct VersionSpecifier {
  std::vector<VersionClause> clauses;
  std::string text;  // as written
  // Whether `v` satisfies every clause. Pre-releases (3.14.0rc1) are allowed
  // only when a clause names one, as pip decides.
  bool allows(const Pep440Version& v) const;
};

struct SpecifierParse {
  std::optional<VersionSpecifier> specifier;
  std::string error;  // why not, when there is none
};

// Parses `>=3.10, <4` and the like. An empty text is an error too (it
// constrains nothing: callers treat it as no requirement before asking).
SpecifierParse parse_version_specifier(std::string_view text);

}  // namespace torchabi::inputs
