// What a library's packaging promises, checked against what it imports: the
// CPython ABI its file name or wheel tag claims, and the platforms the wheel
// is tagged for. Run on every library the audit reads, inside a wheel or not.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzers/binary/cpython_abi_check.h"
#include "findings/finding.h"
#include "inputs/python/wheel_tags.h"

namespace torchabi::inputs {
class WheelArchive;
}

namespace torchabi::binary {

struct LibraryScan;

// The wheel's promises; empty for a library outside a wheel.
struct PackagingContext {
  PythonAbiClaim wheel_claim;
  std::vector<inputs::PlatformTag> platforms;
  std::string tags;  // "cp39-abi3-manylinux_2_17_x86_64, ...", for the report
};

// From the wheel's file name (what pip matches), else from its
// .dist-info/WHEEL "Tag:" lines. Throws InputError naming `path` when both
// exist and disagree.
PackagingContext packaging_context(const inputs::WheelArchive& wheel, const std::string& path);

// `name` is the library's file or member name; `subject` its report entry.
void check_packaging(const LibraryScan& scan, std::string_view name, const PackagingContext& context,
                     const findings::Location& where, size_t subject, findings::Report& report);

}  // namespace torchabi::binary
