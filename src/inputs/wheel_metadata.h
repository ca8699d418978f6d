// The parts of a wheel's METADATA (core metadata, RFC 822 style headers) that
// torchabi uses, and PEP 508 requirement strings ("torch>=2.10; extra == 'x'").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

struct VersionSpecifier {
  std::string op;       // "~=", "==", "!=", "<=", ">=", "<", ">", "==="
  std::string version;  // as written: "2.10", "2.10.*", "2.10.0+cu126"
};

struct Requirement {
  std::string text;        // the whole string as written
  std::string name;        // as written
  std::string normalized;  // PEP 503: lower case, runs of -_. become "-"
  std::vector<std::string> extras;
  std::vector<VersionSpecifier> specifiers;
  std::string url;     // "name @ URL" direct references
  std::string marker;  // environment marker after ';', trimmed

  // Only installed when an extra is requested ("; extra == 'cuda'"): it does
  // not constrain a plain `pip install`.
  bool needs_extra() const;
};

// nullopt when `text` is not a requirement.
std::optional<Requirement> parse_requirement(std::string_view text);

// PEP 503 name normalisation.
std::string normalize_project_name(std::string_view name);

struct WheelMetadata {
  std::string name;
  std::string version;
  std::vector<Requirement> requires_dist;
  std::vector<std::string> unparsed_requires;  // Requires-Dist values we could not read
};

// Never throws: unknown headers are ignored, unreadable requirements are kept
// in `unparsed_requires` for the report.
WheelMetadata parse_wheel_metadata(std::string_view text);

}  // namespace torchabi::inputs
