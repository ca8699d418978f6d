// `torchabi run EXT.so`: loads a stable-ABI extension into torchabi's
// reference runtime (no PyTorch needed), reports what it registers, runs its
// ops (from a case file, or a smoke call per op) and checks the StableIValue
// stack protocol of every call. The extension runs in forked children under a
// time limit; a crash, abort or hang becomes a finding, and the remaining
// cases continue in a fresh child.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/version.h"
#include "findings/finding.h"

namespace torchabi::runtime_driver {

struct RunOptions {
  std::string extension;
  std::optional<std::string> cases;           // --cases FILE.yaml; none: smoke mode
  std::optional<TorchVersion> torch_version;  // --torch-version; none: the newest release the rules know
  double timeout_seconds = 10.0;              // per planned call, and for loading
  std::string runtime_dir;                    // where libtorchabi-runtime-X.Y.so live; empty: look them up
  // --root DIR: the child that loads the extension runs inside this root
  // filesystem (root_child.h); empty: on this machine.
  std::string root;
  // --preload LIB...: loaded (RTLD_GLOBAL) before the extension, as a package's
  // Python loads a sibling library the extension names by another file name.
  std::vector<std::string> preload;
};

// Adds one subject and its findings to `report`. Throws InputError for inputs
// that cannot be used (missing or non-ELF extension, bad case file, a case
// naming an unknown op, an unknown release).
void run_extension(const RunOptions& options, findings::Report& report);

// The runtime library for `version`; throws InputError when it is not installed.
std::string locate_runtime_library(const TorchVersion& version, const std::string& dir_override);

}  // namespace torchabi::runtime_driver
