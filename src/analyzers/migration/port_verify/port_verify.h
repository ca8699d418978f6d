// Whether a port behaves like its original: both trees built against a real
// torch and every op of the port run next to the original's on the same
// inputs (verify_port.py, in that torch's interpreter, confined as a build
// script is). `torchabi verify-port ORIGINAL PORT` and `migrate --fix
// --verify` (the tree before and after its rewrites) report it per op.
#pragma once

#include <string>
#include <vector>

namespace torchabi::migration {

// One extension: a file that registers ops (a TORCH_LIBRARY, STABLE_TORCH_LIBRARY
// or PYBIND11_MODULE block) and the project's C++ sources that register none.
struct VerifyExtension {
  std::string name;                    // the registration file's stem
  std::vector<std::string> original_sources, port_sources;  // relative to their trees
  std::vector<std::string> cuda_sources;                    // of the port, left out (named when symbols are missing)
};

// The extensions of a port: one per C++ source of `port_root` (or of
// `sources`, relative paths, when given) with a registration; CUDA sources
// are left out (no GPU is assumed). Sources of the port the original lacks
// are new files: the original is built without them.
std::vector<VerifyExtension> extensions_to_verify(const std::string& original_root, const std::string& port_root,
                                                  const std::vector<std::string>& sources);

struct VerifyRequest {
  std::string original_root, port_root;
  std::vector<VerifyExtension> extensions;
  std::string target_hex;   // TORCH_TARGET_VERSION for the port ("" : the headers' own)
  std::string python;       // the interpreter of the torch to build and run with
  std::string inputs_file;  // the project's inputs (a Python file with inputs(op)), or ""
  int timeout_seconds = 1800;
};

struct OpVerdict {
  enum class Status { Verified, Differs, NotVerified };
  std::string op;
  Status status = Status::NotVerified;
  std::string why;     // Differs / NotVerified: the first difference, or why it did not run
  std::string inputs;  // what it ran on, "(float32[2, 3], 1)"
};

struct ExtensionVerdict {
  std::string name;
  std::vector<std::string> sources;
  std::string stable_only;  // "" : compiles with the stable headers alone; else why not
  std::string port_build;   // "" : built and loaded; else why not
  std::string original_build;
  std::vector<OpVerdict> ops;
  std::vector<std::string> missing;  // the original's functions and ops the port does not register
  bool verified() const;             // every op verified, nothing missing, stable-only
};

struct VerifyRun {
  bool ran = false;
  std::string why_not;  // when !ran
  std::string torch_version;
  std::string python;
  std::vector<ExtensionVerdict> extensions;
  // CUDA sources of the port that were not built (no GPU is assumed): what
  // they register or define is unverified, so the run is not a pass.
  std::vector<std::string> left_out;
  bool verified() const;
};

VerifyRun verify_port(const VerifyRequest& request);

// The run from verify_port.py's JSON line (exposed for tests).
VerifyRun verify_from_json(const std::string& json_line);

const char* status_name(OpVerdict::Status s);

}  // namespace torchabi::migration
