// setuptools for an interpreter that has none. A project that needs Python
// 3.12 is built by pip in an isolated environment where its build-system
// requirements (setuptools) are installed; the 3.12 that pyenv or uv gives
// has no setuptools of its own, so setup.py would stop at its first import.
// torchabi installs nothing: it shows the script the setuptools of another
// interpreter on the machine (pure Python: setuptools, its distutils shim,
// pkg_resources), as pip's isolation would have installed one, and says so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "inputs/project/environment/sandbox.h"

namespace torchabi::inputs {

struct LentSetuptools {
  std::string pythonpath;            // the directory to put first on PYTHONPATH
  std::vector<std::string> visible;  // the donor's package directories (read-only in the sandbox)
  std::string fact;                  // "setuptools 66.1.1 of /usr/bin/python3 (python3.13 has none)"
};

// When `python` cannot import setuptools and one of `donors` can: links to
// the donor's packages in `scratch`/lent-setuptools. nullopt when `python`
// has its own, or no donor has one.
std::optional<LentSetuptools> lend_setuptools(const std::string& python, const std::vector<std::string>& donors,
                                              const std::string& scratch);

// Puts `lent` into the environment of the script (PYTHONPATH first, the
// donor's directories visible).
void apply_lent_setuptools(const LentSetuptools& lent, Confinement& c);

}  // namespace torchabi::inputs
