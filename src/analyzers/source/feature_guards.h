// For which TORCH_FEATURE_VERSION values each line of a PyTorch header is
// compiled. PyTorch declares each stable API added after 2.9 inside
//   #if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 ... #endif
// and keeps older forms of some (the 2.9 overloads of new_empty/new_zeros in
// torch/csrc/stable/ops.h) inside `#if TORCH_FEATURE_VERSION < ...` or the
// `#else` of such a guard. So the guards around a declaration say from which
// release on (and up to which) that exact declaration exists, for the torch
// the user builds against.
//
// The scan models the whole conditional structure of the file: nested
// #if/#ifdef/#ifndef/#elif/#else/#endif, each #elif/#else holding where the
// conditions before it were false. Conditions that do not test
// TORCH_FEATURE_VERSION only matter for nesting (see evaluate_feature_condition).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "analyzers/source/version_set.h"
#include "common/version.h"

namespace torchabi::source {

class FeatureGuards {
public:
  static FeatureGuards scan(std::string_view header_text);

  // The TORCH_FEATURE_VERSION values for which `line` (1-based) is compiled.
  const VersionSet& compiled_at(unsigned line) const;

  // The lowest release at which `line` is compiled, when the guards set a
  // lower bound; nullopt when the line is compiled however low the target
  // (no guard, or only upper bounds such as `< 2.10`) or never.
  std::optional<TorchVersion> required_at(unsigned line) const;

  // Some condition of the file compares TORCH_FEATURE_VERSION with a version.
  bool has_version_guards() const { return has_version_guards_; }
  // The file #defines TORCH_FEATURE_VERSION (torch/csrc/stable/version.h):
  // the header set it belongs to has the versioning mechanism at all.
  bool defines_feature_version() const { return defines_feature_version_; }

  // Every distinct set some line of the file has, in file order.
  std::vector<VersionSet> distinct_sets() const;

private:
  struct Segment {
    unsigned first_line;  // applies from here to the next segment
    VersionSet versions;
  };
  std::vector<Segment> segments_;
  bool has_version_guards_ = false;
  bool defines_feature_version_ = false;
};

}  // namespace torchabi::source
