// Which torch releases a wheel lets pip install it next to, read from its
// Requires-Dist entries, reduced to what the floor check needs: the oldest
// release allowed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/version.h"
#include "inputs/wheel_metadata.h"

namespace torchabi::binary {

struct TorchAllowance {
  enum class Kind {
    NotDeclared,   // no Requires-Dist on torch (outside extras): any torch
    NoLowerBound,  // "torch", "torch<3", "torch!=2.11": any torch down to the oldest
    LowerBound,    // "torch>=2.10", "torch~=2.12", "torch==2.12.*"
    Unknown,       // a direct URL or a version we cannot read: not checked
  };
  Kind kind = Kind::NotDeclared;
  TorchVersion bound;      // LowerBound: the bound
  bool inclusive = true;   // LowerBound: ">=" (true) or ">" (false)
  std::string requirement; // the Requires-Dist text that decided, for messages
  // Where the requirement is stated: "Requires-Dist" (a wheel's METADATA) or
  // "depends" (a conda package's info/index.json), and what "no requirement"
  // is called there.
  std::string origin = "Requires-Dist";
  std::string undeclared = "no Requires-Dist on torch";

  // True when some allowed release is older than `floor`.
  bool allows_older_than(TorchVersion floor) const;
  // "torch>=2.10" as the user wrote it, or a description for NotDeclared.
  std::string describe() const;
};

// The release numbers of a PEP 440 version: "2.12", "2.12.0rc1", "2.12.*",
// "2.12.0+cu126" -> 2.12.0. nullopt for non-zero epochs or garbage.
std::optional<TorchVersion> parse_release(std::string_view pep440);

// With several torch requirements (different environment markers), the most
// permissive one decides: some environment gets it.
TorchAllowance torch_allowance(const inputs::WheelMetadata& metadata);

}  // namespace torchabi::binary
