// The front end's knowledge of inactive preprocessor branches (#if 0, a false
// #ifdef), carried from lint's child processes to --fix. Lint reports nothing
// inside such a branch, so no fix-it should land there; the rewrite engine
// enforces it anyway with these ranges (defence in depth: a stale cache or a
// future token-level check must not be able to edit code the compiler never
// read).
//
// A file included by several translation units is protected only where every
// one of them skipped it: a block under #ifdef __CUDACC__ is live code for the
// .cu file that includes the header.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzers/migration/directive_scanner.h"
#include "findings/finding.h"

namespace torchabi::migration {

// Adds the check that records each project file's skipped ranges to every
// lint run in this process (call before source::run_lint).
void register_inactive_region_check();

// Takes the recorded ranges out of the lint report's subjects (they are not
// for users) and returns, per normal path, the ranges skipped by every
// translation unit that read the file.
std::map<std::string, std::vector<ByteRange>> take_inactive_regions(findings::Report& report);

// Intersection of two sorted, disjoint range lists.
std::vector<ByteRange> intersect_ranges(const std::vector<ByteRange>& a, const std::vector<ByteRange>& b);

}  // namespace torchabi::migration
