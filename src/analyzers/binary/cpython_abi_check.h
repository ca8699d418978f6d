// CPython ABI claims of extension modules against what they import: a module
// named "*.abi3.so", or in a wheel tagged "cp3X-abi3", must import only
// CPython's stable ABI, and only what joined it by 3.X.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "findings/finding.h"
#include "inputs/python/cpython_abi.h"

namespace torchabi::inputs {
struct WheelTags;
}

namespace torchabi::binary {

struct LibraryScan;

// What a module's file name or its wheel's tags promise about the CPython ABI.
struct PythonAbiClaim {
  enum class Kind { None, Abi3, VersionSpecific };
  Kind kind = Kind::None;
  std::optional<inputs::PythonVersion> min;  // abi3: the oldest CPython promised ("cp39-abi3": 3.9)
  std::string cpython;                       // VersionSpecific: "3.11"
  std::string source;                        // "the file name", "the wheel tag cp39-abi3"
};

// "_C.abi3.so": abi3; "_C.cpython-311-x86_64-linux-gnu.so", "_C.cp311-win_amd64.pyd":
// CPython 3.11 only; anything else: None (a plain "_C.pyd" may be either).
PythonAbiClaim claim_from_module_name(std::string_view member);
// "cp39-abi3-...": abi3 from 3.9 on; "cp311-cp311-...": 3.11 only; None otherwise.
PythonAbiClaim claim_from_wheel_tags(const inputs::WheelTags& tags);

// Adds the "CPython ABI" fact to `subject` (when the library imports the C
// API or claims an ABI) and the findings of binary-abi3-non-limited-api and
// binary-abi3-newer-than-tag. `wheel` is None outside a wheel.
void check_cpython_abi(const LibraryScan& scan, std::string_view member, const PythonAbiClaim& wheel,
                       const findings::Location& where, findings::Subject& subject, findings::Report& report);

}  // namespace torchabi::binary
