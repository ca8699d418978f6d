// Whether a library loads on a given PyTorch install (`audit --torch PATH`):
// the measured answer, per library and per install, that every reporter
// renders as a matrix. Plain data: the binary analyzer fills it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace torchabi::findings {

// One install the libraries were resolved against.
struct TorchInstallInfo {
  std::string id;              // the PATH as given: how results refer to it
  std::string kind;            // "python-package", "libtorch", "wheel", "library-directory"
  std::string version;         // "2.14.1"; empty when the install does not say
  std::string version_source;  // where the version was read
  std::vector<std::string> libraries;  // the install's library file names
};

// An import the install does not satisfy.
struct MissingSymbol {
  std::string symbol;     // as imported (mangled)
  std::string demangled;  // the same when it is not C++
  std::string version;    // the GNU symbol version it requires, if any
  // "stable-shim", "unknown-shim", "stable-c++", "unstable-c++", "other"
  std::string group;
  // Nearest explanation: "other-library" (defined by a library of the
  // install that the library does not link), "other-version" (defined with
  // another GNU version), "other-signature" (the same function with other
  // parameters), "absent".
  std::string reason;
  std::vector<std::string> candidates;  // what was found instead: libraries, versions or signatures
};

// A DT_NEEDED entry of PyTorch's that the install does not provide by that name.
struct MissingLibrary {
  std::string needed;                  // "libtorch_cpu.so.1.13"
  std::vector<std::string> available;  // the install's names of the same library ("libtorch_cpu.so.2.14")
};

// A GNU version the library requires of one of the install's libraries.
struct MissingVersion {
  std::string library;  // the DT_NEEDED name
  std::string version;
  std::vector<std::string> defined;  // the versions that library defines
};

struct TorchLoad {
  std::string torch;    // TorchInstallInfo::id
  std::string version;  // TorchInstallInfo::version
  bool loads = false;
  std::vector<MissingLibrary> missing_libraries;
  std::vector<MissingVersion> missing_versions;
  std::vector<MissingSymbol> missing_symbols;
  std::vector<std::string> resolved_against;  // the install's libraries in the DT_NEEDED closure
  // The library links no PyTorch library: its imports were resolved against
  // the whole install, as in a process that loaded torch with RTLD_GLOBAL.
  bool assumed_global = false;
  // What the rules (stable C shim releases) predict for this release, when
  // they can say; set for STABLE libraries only.
  std::optional<bool> rules_predict_loads;
};

}  // namespace torchabi::findings
