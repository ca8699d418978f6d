// The third-party headers most of src/ includes, parsed once per build
// instead of once per unity batch: every static library of src/ compiles
// with this precompiled header first (src/CMakeLists.txt), which saves about
// 2 s of parsing per batch (bench/build). Only headers that no edit of ours
// changes belong here: a change to this list rebuilds everything.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>
