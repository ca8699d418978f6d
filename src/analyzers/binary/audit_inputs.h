// Expands the paths given to `torchabi audit` into the files to audit:
// files as given, directories (site-packages trees, package mirrors) walked
// for shared libraries, wheels and conda packages.
#pragma once

#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::binary {

enum class ArtifactKind { Library, Wheel, CondaPackage };

struct Artifact {
  std::string path;
  ArtifactKind kind = ArtifactKind::Library;
  bool named = true;  // given as a file, not found by walking a directory
};

struct ExpandedInputs {
  std::vector<Artifact> artifacts;
  std::vector<findings::InputFailure> failures;  // missing paths, empty directories
};

// Files are taken whatever their name (a conda package by its ".conda" or
// ".tar.bz2" name, a wheel by its ".whl" name or zip signature, anything else
// as a library). Directories are walked recursively
// without following directory symlinks; a file reached twice through
// symlinks is audited once. Results of a walk are sorted by path.
ExpandedInputs expand_inputs(const std::vector<std::string>& paths);

}  // namespace torchabi::binary
