// A wheel's platform tags against each library in it: pip installs the wheel
// on every platform a tag names, so each library must load on all of them.
// ELF: its GNU symbol versions within the manylinux/musllinux policy;
// Mach-O: its deployment target no newer than the macosx tag; every format:
// an architecture the tag names.
#pragma once

#include <vector>

#include "findings/finding.h"
#include "inputs/python/wheel_tags.h"

namespace torchabi::binary {

struct LibraryScan;

// Adds binary-glibc-newer-than-tag, binary-macos-newer-than-tag and
// binary-arch-not-in-tag findings. Does nothing without platform tags.
void check_platform_tags(const LibraryScan& scan, const std::vector<inputs::PlatformTag>& tags,
                         const findings::Location& where, findings::Report& report);

}  // namespace torchabi::binary
