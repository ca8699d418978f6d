// TuResult <-> JSON: how a child process hands its results to the parent and
// how the results cache stores them.
#pragma once

#include <string>

#include "analyzers/source/tu_check.h"

namespace torchabi::source {

// Part of the results cache's key: bump it whenever the JSON changes, so that
// entries an older torchabi wrote are never read as this one's.
inline constexpr int kTuResultFormat = 2;

std::string serialize_tu_result(const TuResult& r);
// Throws std::runtime_error on malformed input (a torchabi bug or a corrupt cache entry).
TuResult deserialize_tu_result(const std::string& json);

}  // namespace torchabi::source
